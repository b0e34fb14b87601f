import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { named, OptionsSelect } from '../../../components/ui/options-select';
import { projectsQueryOptions } from '../../../lib/queries/projects';
import { teamsQueryOptions } from '../../../lib/queries/teams';

interface CalendarFiltersProps {
  teamId: string;
  projectId: string;
  onChange: (changes: { teamId?: string | null; projectId?: string | null }) => void;
}

/**
 * Team and project, as the Tasks page's filter bar offers the project: the same select, the same cached lists
 * (lib/queries), applied on the server. With a team chosen, only its projects are offered; a project of another
 * team is dropped when the team changes.
 */
export function CalendarFilters({ teamId, projectId, onChange }: CalendarFiltersProps) {
  const teams = useQuery(teamsQueryOptions());
  const projects = useQuery(projectsQueryOptions());
  const teamProjects = useMemo(
    () => (projects.data ?? []).filter((p) => !teamId || p.teamId === teamId),
    [projects.data, teamId],
  );
  return (
    <>
      <OptionsSelect
        label="Team"
        srOnlyLabel
        className="w-full sm:w-44"
        value={teamId}
        onChange={(e) => {
          const next = e.target.value;
          const keepsProject = !next || !projectId || projects.data?.some((p) => p.id === projectId && p.teamId === next);
          onChange({ teamId: next || null, ...(keepsProject ? {} : { projectId: null }) });
        }}
        emptyOption="All Teams"
        options={named(teams.data)}
      />
      <OptionsSelect
        label="Project"
        srOnlyLabel
        className="w-full sm:w-48"
        value={projectId}
        onChange={(e) => onChange({ projectId: e.target.value || null })}
        emptyOption="All Projects"
        options={named(teamProjects)}
      />
    </>
  );
}
