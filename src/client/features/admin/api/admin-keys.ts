/** Query keys of the admin feature. */
export const adminKeys = {
  all: ['admin'] as const,
  overview: () => [...adminKeys.all, 'overview'] as const,
  users: (q: string) => [...adminKeys.all, 'users', { q }] as const,
};
