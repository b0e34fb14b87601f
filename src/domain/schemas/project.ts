import { z } from 'zod';
import { LIMITS, PROJECT_STATUSES, TEAM_ROLES } from '../constants';
import { MSG } from '../messages';
import { isoDate, isoDateTime, optionalText, uuid, versionField } from './common';

/** True when both dates are set and the end is not after the start (spec §5). */
export function endNotAfterStart(startDate?: string | null, endDate?: string | null): boolean {
  return Boolean(startDate && endDate && endDate <= startDate);
}

export const projectFields = {
  name: z.string({ error: MSG.projectNameRequired }).trim().min(1, MSG.projectNameRequired).max(LIMITS.nameMax),
  description: optionalText(LIMITS.descriptionMax),
  status: z.enum(PROJECT_STATUSES).default('planning'),
  teamId: uuid,
  startDate: isoDate.nullish().transform((v) => v ?? null),
  endDate: isoDate.nullish().transform((v) => v ?? null),
};

export const datesInOrder = (v: { startDate: string | null; endDate: string | null }) =>
  !endNotAfterStart(v.startDate, v.endDate);
export const datesIssue = { message: MSG.endAfterStart, path: ['endDate'] };

export const createProjectInput = z.object(projectFields).strict().refine(datesInOrder, datesIssue);
export type CreateProjectInput = z.infer<typeof createProjectInput>;

/**
 * An edit: every field optional (absent = unchanged, null = cleared for description and dates).
 * `progress` and `ownerId` are not fields, so a body carrying them is rejected (strict).
 */
export const updateProjectInput = z
  .object({
    name: projectFields.name.optional(),
    description: z
      .string()
      .max(LIMITS.descriptionMax)
      .nullable()
      .optional()
      .transform((s) => (s === undefined ? undefined : s?.trim() || null)),
    status: z.enum(PROJECT_STATUSES).optional(),
    teamId: uuid.optional(),
    startDate: isoDate.nullable().optional(),
    endDate: isoDate.nullable().optional(),
    version: versionField,
  })
  .strict()
  .refine((v) => !endNotAfterStart(v.startDate, v.endDate), datesIssue);
export type UpdateProjectInput = z.infer<typeof updateProjectInput>;

export const listProjectsQuery = z.object({
  teamId: uuid.optional(),
  status: z.enum(PROJECT_STATUSES).optional(),
  q: z.string().max(200).optional(),
});
export type ListProjectsQuery = z.infer<typeof listProjectsQuery>;

export const projectDto = z.object({
  id: uuid,
  name: z.string(),
  description: z.string().nullable(),
  status: z.enum(PROJECT_STATUSES),
  ownerId: uuid,
  teamId: uuid,
  teamName: z.string(),
  teamMemberCount: z.number().int(),
  startDate: isoDate.nullable(),
  endDate: isoDate.nullable(),
  progress: z.number().int().min(0).max(100),
  taskCount: z.number().int(),
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
  version: z.number().int(),
  /** The caller's role in the project's team: what they may do is the domain's rule (permissions.ts). */
  myRole: z.enum(TEAM_ROLES),
});
export type ProjectDto = z.infer<typeof projectDto>;
