/** The one query-key factory of the dashboard feature; every key starts with 'dashboard'. */
export const dashboardKeys = {
  all: ['dashboard'] as const,
  summary: (today: string) => [...dashboardKeys.all, 'summary', today] as const,
};
