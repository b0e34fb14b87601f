// `fresh` (the conditional-GET check Express and Koa use) ships no types.
declare module 'fresh' {
  export default function fresh(reqHeaders: Record<string, unknown>, resHeaders: Record<string, unknown>): boolean;
}
