declare module 'parse-prometheus-text-format' {
  /** The families of a Prometheus text exposition, as the package returns them (its own shapes, read by the tests). */
  export default function parsePrometheusTextFormat(text: string): unknown[];
}
