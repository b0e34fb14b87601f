/** Pure rules of the projects page (spec §2 'Projects', §9): stat cards, status tiles, due labels. */
import type { PROJECT_STATUS_TILES, ProjectStatus } from './constants';
import { MSG } from './messages';
import { endNotAfterStart } from './schemas/project';

interface ProjectLike {
  status: ProjectStatus;
  progress: number;
}

export interface ProjectStats {
  total: number;
  active: number;
  completed: number;
  /** Rounded mean of progress, 0 when there are no projects. */
  avgProgress: number;
}

export function projectStats(projects: readonly ProjectLike[]): ProjectStats {
  const total = projects.length;
  const sum = projects.reduce((acc, p) => acc + p.progress, 0);
  return {
    total,
    active: projects.filter((p) => p.status === 'active').length,
    completed: projects.filter((p) => p.status === 'completed').length,
    avgProgress: total === 0 ? 0 : Math.round(sum / total),
  };
}

export type ProjectTile = 'all' | (typeof PROJECT_STATUS_TILES)[number];

/** Counts for the status tiles: All Projects, then each tile status (archived is not a tile but counts in All). */
export function projectTileCounts(projects: readonly ProjectLike[]): Record<ProjectTile, number> {
  const counts: Record<ProjectTile, number> = { all: projects.length, active: 0, planning: 0, on_hold: 0, completed: 0 };
  for (const p of projects) {
    if (p.status !== 'archived') counts[p.status] += 1;
  }
  return counts;
}

/** 'Due {date}' is shown red when the end date is past (before today) and the project is not completed. */
export function isProjectOverdue(endDate: string | null, status: ProjectStatus, today: string): boolean {
  return Boolean(endDate) && endDate! < today && status !== 'completed';
}

/** Today's calendar date (YYYY-MM-DD) in the viewer's local time zone. */
export { localIsoDate } from './dates';

/** The project form's values as typed (dates as 'YYYY-MM-DD' or ''). */
export type ProjectFormValues = {
  name: string;
  description: string;
  teamId: string;
  status: ProjectStatus;
  startDate: string;
  endDate: string;
};

export const PROJECT_TEAM_REQUIRED = 'Please select a team';

/** Field errors of the project form (spec §5 'Project form'); empty when it may be saved. */
export function validateProjectForm(values: ProjectFormValues): Partial<Record<keyof ProjectFormValues, string>> {
  const errors: Partial<Record<keyof ProjectFormValues, string>> = {};
  if (!values.name.trim()) errors.name = MSG.projectNameRequired;
  if (!values.teamId) errors.teamId = PROJECT_TEAM_REQUIRED;
  if (endNotAfterStart(values.startDate || null, values.endDate || null)) errors.endDate = MSG.endAfterStart;
  return errors;
}

/** The request body for a create or an edit: trimmed, empty optional fields sent as null. */
export function projectFormPayload(values: ProjectFormValues) {
  return {
    name: values.name.trim(),
    description: values.description.trim() || null,
    teamId: values.teamId,
    status: values.status,
    startDate: values.startDate || null,
    endDate: values.endDate || null,
  };
}
