/** Pure rules of the projects page (spec §2 'Projects', §9): stat cards, status tiles, due labels. */
import type { PROJECT_STATUS_TILES, ProjectStatus } from './constants';
import { z } from 'zod';
import { emptyAsNull, isoDate, uuid } from './schemas/common';
import { datesInOrder, datesIssue, projectFields } from './schemas/project';

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

/**
 * The project form (spec §5 'Project form'): the create body's fields, with '' for an empty date
 * or no team chosen yet. Its output is the request body: trimmed, empty optional fields as null.
 */
export const projectForm = z
  .object({
    ...projectFields,
    teamId: z.string().min(1, PROJECT_TEAM_REQUIRED).pipe(uuid),
    startDate: emptyAsNull(isoDate),
    endDate: emptyAsNull(isoDate),
  })
  // The date order shows even while another field fails.
  .refine(datesInOrder, { ...datesIssue, when: ({ value }) => hasDates(value) });

const hasDates = (value: unknown): boolean => {
  const v = value as { startDate?: unknown; endDate?: unknown };
  return typeof v.startDate === 'string' && typeof v.endDate === 'string';
};
