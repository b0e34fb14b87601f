import { type ChangeEvent, useEffect, useState } from 'react';
import type { ProjectDto } from '../../../../domain/schemas/project';
import type { TeamDto } from '../../../../domain/schemas/team';
import { Card } from '../../../components/ui/card';
import { TextField } from '../../../components/ui/field';
import { named, OptionsSelect, type SelectOption } from '../../../components/ui/options-select';
import { defaultRange, type Period, rangeErrors, type Scope } from '../analytics-scope';
import { PERIOD_OPTIONS, TEXT } from '../analytics-text';

export interface ScopeControlsProps {
  scope: Scope;
  teams: TeamDto[];
  projects: ProjectDto[];
  today: string;
  /** The teams and projects have arrived (until then an id from the URL is not 'unknown'). */
  isLoaded: boolean;
  /** The range the figures on screen cover (a switch to a custom range starts from it). */
  shown?: { from: string; to: string };
  /** Only what changed: see `scopeChanges`. */
  onChange: (change: Partial<Scope>) => void;
  /** Issue 38: the Select fields of the scope's team(s) the charts can be split by, and the one chosen ('' none). */
  splitFields: { id: string; name: string }[];
  splitBy: string;
}

/**
 * Team, project and period. Each change goes to the URL at once, except a custom range's dates: those are a draft
 * until both are valid (a half-typed date would otherwise drop the range from the URL and the period with it).
 */
export function ScopeControls({
  scope,
  teams,
  projects,
  today,
  isLoaded,
  shown,
  onChange,
  splitFields,
  splitBy,
}: ScopeControlsProps) {
  const [draft, setDraft] = useState({ from: scope.from, to: scope.to });
  useEffect(() => setDraft({ from: scope.from, to: scope.to }), [scope.from, scope.to]);
  const errors = scope.period === 'custom' ? rangeErrors(draft.from, draft.to) : undefined;

  const teamProjects = scope.teamId ? projects.filter((p) => p.teamId === scope.teamId) : projects;
  // A link may name a team or project the viewer cannot see (or no longer can): the select shows it as such (the
  // API answers 'not found'), so that choosing 'All teams' is a change and gets them out.
  const withUnknown = (options: SelectOption[], value: string, label: string) =>
    value && isLoaded && !options.some((o) => o.value === value) ? [...options, { value, label }] : options;

  const setTeam = (teamId: string) => {
    const keepsProject = projects.some((p) => p.id === scope.projectId && (!teamId || p.teamId === teamId));
    onChange(keepsProject ? { teamId } : { teamId, projectId: '' });
  };

  const setPeriod = (period: Period) => {
    onChange(period === 'custom' ? { period, ...defaultRange(today, shown) } : { period });
  };

  const setDate = (field: 'from' | 'to', value: string) => {
    const next = { ...draft, [field]: value };
    setDraft(next);
    if (!rangeErrors(next.from, next.to)) onChange({ period: 'custom', ...next });
  };
  /** A date field of the custom range (each bounds the other's picker). */
  const dateField = (field: 'from' | 'to') => ({
    type: 'date',
    label: TEXT[field],
    value: draft[field],
    error: errors?.[field],
    onChange: (e: ChangeEvent<HTMLInputElement>) => setDate(field, e.target.value),
  });

  return (
    <Card className="p-4">
      <div role="group" aria-label={TEXT.scope} className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <OptionsSelect
          label={TEXT.team}
          emptyOption={TEXT.allTeams}
          options={withUnknown(named(teams), scope.teamId, TEXT.unknownTeam)}
          value={scope.teamId}
          onChange={(e) => setTeam(e.target.value)}
        />
        <OptionsSelect
          label={TEXT.project}
          emptyOption={TEXT.allProjects}
          options={withUnknown(named(teamProjects), scope.projectId, TEXT.unknownProject)}
          value={scope.projectId}
          onChange={(e) => onChange({ projectId: e.target.value })}
        />
        <OptionsSelect
          label={TEXT.period}
          options={[...PERIOD_OPTIONS]}
          value={scope.period}
          onChange={(e) => setPeriod(e.target.value as Period)}
        />
        <OptionsSelect
          label={TEXT.splitBy}
          emptyOption={TEXT.splitNothing}
          options={named(splitFields)}
          value={splitBy}
          onChange={(e) => onChange({ splitBy: e.target.value })}
        />
        {scope.period === 'custom' && (
          <div className="grid grid-cols-2 gap-3 sm:col-span-2 sm:max-w-md lg:col-span-4">
            <TextField {...dateField('from')} max={draft.to || undefined} />
            <TextField {...dateField('to')} min={draft.from || undefined} />
          </div>
        )}
      </div>
    </Card>
  );
}
