import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Clock, Layers } from 'lucide-react';
import { useState } from 'react';
import { ESTIMATE_UNIT_LABELS, ESTIMATE_UNITS, type EstimateUnit } from '../../../../domain/constants';
import type { TeamDto, UpdateTeamInput } from '../../../../domain/schemas/team';
import { PageSection } from '../../../components/ui/page-section';
import { api } from '../../../lib/api-client';
import { cn } from '../../../lib/cn';
import { toastError } from '../../../lib/errors';
import { teamKeys } from '../../../lib/queries/teams';

const UNIT_OPTIONS: Record<EstimateUnit, { hint: string; icon: typeof Clock }> = {
  time: { hint: 'Such as 5h or 2h 30m', icon: Clock },
  points: { hint: 'Such as 3 or 2.5', icon: Layers },
};

/**
 * Team settings → Estimates (issue 39), for the team's owners and admins (the server checks again): whether its tasks
 * are estimated in hours and minutes or in story points. Saved at once (PATCH /api/teams/:id `estimateUnit`); the
 * estimates already given in the other unit are kept, only not shown.
 */
export function EstimateUnitSection({ team }: { team: TeamDto }) {
  const qc = useQueryClient();
  const [status, setStatus] = useState('');
  // The choice shows at once, until the team is read again (a refused one then goes back).
  const [chosen, setChosen] = useState<EstimateUnit | null>(null);
  const save = useMutation({
    // The PATCH takes the whole team (the form's): its name and description as they are, against its version.
    mutationFn: (estimateUnit: EstimateUnit) =>
      api.patch<TeamDto>(`/api/teams/${team.id}`, {
        name: team.name,
        description: team.description,
        estimateUnit,
        version: team.version,
      } satisfies UpdateTeamInput),
    onMutate: (unit) => setChosen(unit),
    onSuccess: (_, unit) => setStatus(`Tasks are now estimated in ${ESTIMATE_UNIT_LABELS[unit].toLowerCase()}`),
    onError: (error) => toastError(error, 'Could not change how tasks are estimated'),
    onSettled: async () => {
      await qc.invalidateQueries({ queryKey: teamKeys.all });
      setChosen(null);
    },
  });
  const current = chosen ?? team.estimateUnit;
  return (
    <PageSection
      headingId="estimate-unit-heading"
      title="Estimates"
      description="How this team's tasks are estimated. Estimates given in the other unit are kept, only not shown."
    >
      <fieldset>
        <legend className="sr-only">Estimate tasks in</legend>
        <div className="grid max-w-2xl gap-3 sm:grid-cols-2">
          {ESTIMATE_UNITS.map((unit) => {
            const { hint, icon: Icon } = UNIT_OPTIONS[unit];
            const checked = current === unit;
            return (
              <label
                key={unit}
                className={cn(
                  'flex cursor-pointer items-center gap-3 rounded-lg border p-3 has-focus-visible:outline-2 has-focus-visible:outline-offset-2 has-focus-visible:outline-brand-600',
                  checked
                    ? 'border-brand-600 bg-brand-50 dark:border-indigo-400 dark:bg-indigo-950'
                    : 'border-slate-300 hover:bg-slate-50 dark:border-slate-600 dark:hover:bg-slate-800',
                )}
              >
                <input
                  type="radio"
                  name="estimate-unit"
                  value={unit}
                  checked={checked}
                  disabled={save.isPending}
                  onChange={() => save.mutate(unit)}
                  className="h-4 w-4 accent-indigo-600"
                />
                <Icon className="h-5 w-5 shrink-0 text-slate-700 dark:text-slate-200" aria-hidden />
                <span>
                  <span className="block text-sm font-medium">{ESTIMATE_UNIT_LABELS[unit]}</span>
                  <span className="block text-xs text-slate-600 dark:text-slate-300">{hint}</span>
                </span>
              </label>
            );
          })}
        </div>
      </fieldset>
      <p role="status" className="sr-only">
        {status}
      </p>
    </PageSection>
  );
}
