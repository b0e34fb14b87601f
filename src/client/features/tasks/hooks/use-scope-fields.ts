import { useMemo } from 'react';
import { useMyFields } from '../../../lib/queries/custom-fields';
import { useTaskProjects } from '../api/get-projects';
import { type CustomFieldDef, fieldAppliesTo } from '../../../../domain/custom-fields';

type ScopeField = Pick<CustomFieldDef, 'id' | 'teamId' | 'archived' | 'projectIds' | 'position'>;

/**
 * The fields the page shows: on one project those applying to it (of its team), on All Projects (projectTeamId
 * undefined, projectId '') every field not archived of the caller's teams; in the teams' then the fields' order.
 */
export function scopeFields<F extends ScopeField>(fields: readonly F[], projectId: string, projectTeamId?: string): F[] {
  return fields
    .filter((f) => (projectId ? f.teamId === projectTeamId && fieldAppliesTo(f, projectId) : !f.archived))
    .sort((a, b) => (a.teamId === b.teamId ? a.position - b.position : a.teamId < b.teamId ? -1 : 1));
}

/**
 * The custom fields of the Tasks page's scope (issue 38): on one project those applying to it, on All Projects every
 * field not archived of the caller's teams. Also every field known (`all`: a filter's chip names its field even when
 * the field is not in scope).
 */
export function useScopeFields(projectId: string) {
  const all = useMyFields().data;
  const projects = useTaskProjects().data;
  const teamId = projectId ? projects?.find((p) => p.id === projectId)?.teamId : undefined;
  const fields = useMemo(() => (all ? scopeFields(all, projectId, teamId) : []), [all, projectId, teamId]);
  return { fields, all: all ?? [] };
}
