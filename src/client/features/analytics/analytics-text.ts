/** The Analytics page's texts (kept in the feature: the sign-in bundle does not carry them). */

export const CHART_IDS = [
  'throughput',
  'cycle-time',
  'cycle-time-distribution',
  'burn-up',
  'wip',
  'ageing',
  'workload',
  'overdue',
  'cumulative-flow',
  'time-logged',
  'estimate-vs-actual',
] as const;
export type ChartId = (typeof CHART_IDS)[number];

export const CHARTS: Record<ChartId, { title: string; explanation: string }> = {
  throughput: { title: 'Throughput', explanation: 'Tasks completed each week.' },
  'cycle-time': {
    title: 'Cycle time',
    explanation:
      'Time from a task’s first move into a started status (such as In Progress) to its completion: the median and the 85th percentile of each week’s completions.',
  },
  'cycle-time-distribution': {
    title: 'Cycle time distribution',
    explanation: 'How long the tasks completed in the period took, from their first started status to completed.',
  },
  'burn-up': {
    title: 'Burn-up',
    explanation: 'A project’s scope (its tasks, less canceled ones) and its completed tasks at the end of each week.',
  },
  wip: { title: 'Work in progress', explanation: 'Open tasks in each status now.' },
  ageing: { title: 'Ageing', explanation: 'The open tasks that have been longest in their current status, oldest first.' },
  workload: { title: 'Workload', explanation: 'Open tasks per assignee, split by priority.' },
  overdue: { title: 'Overdue trend', explanation: 'Open tasks past their due date at the end of each week.' },
  'cumulative-flow': {
    title: 'Cumulative flow',
    explanation: 'Tasks in each status at the end of each day, stacked in the workflow’s order.',
  },
  'time-logged': { title: 'Time logged', explanation: 'Hours logged each week, by the day of each entry.' },
  'estimate-vs-actual': {
    title: 'Estimate vs actual',
    explanation:
      'Tasks completed in the period with an estimate in hours and time logged (sub-tasks included): the time logged against the estimate.',
  },
};

export const TEXT = {
  title: 'Analytics',
  subtitle: 'How work flows through your teams.',
  scope: 'Scope',
  team: 'Team',
  allTeams: 'All teams',
  project: 'Project',
  allProjects: 'All projects',
  unknownTeam: 'Team not found',
  unknownProject: 'Project not found',
  period: 'Period',
  splitBy: 'Split by',
  splitNothing: 'Nothing',
  customRange: 'Custom range',
  from: 'From',
  to: 'To',
  dateRequired: 'Enter a date',
  showData: 'Show data',
  downloadCsv: 'Download CSV',
  loading: 'Loading analytics...',
  loadFailed: 'Failed to load analytics',
  retry: 'Retry',
  emptyTitle: 'No tasks in this scope',
  emptyMessage: 'Tasks created in these teams and projects show here. Pick another team, project or period, or add tasks.',
  goToTasks: 'Go to tasks',
  burnupProject: 'Project shown',
  noBurnup: 'No project has tasks in this scope.',
  noAgeing: 'No open tasks.',
  noWorkload: 'No open tasks.',
  unassigned: 'Unassigned',
  updating: 'Updating…',
  pickProject: 'Pick a project in Scope to see its cumulative flow.',
  flowLoadFailed: 'Failed to load the cumulative flow',
  deletedStatus: 'deleted',
} as const;

export const PERIOD_OPTIONS = [
  { value: '4', label: 'Last 4 weeks' },
  { value: '12', label: 'Last 12 weeks' },
  { value: '26', label: 'Last 26 weeks' },
  { value: 'custom', label: TEXT.customRange },
] as const;
