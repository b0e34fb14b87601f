import { useMemo } from 'react';
import { useMyFields } from '../../../lib/queries/custom-fields';
import { useTaskProjects } from '../api/get-projects';
import { scopeFields } from '../field-filters';

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
