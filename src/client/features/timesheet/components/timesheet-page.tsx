import { useQuery, useQueryClient } from '@tanstack/react-query';
import { ChevronLeft, ChevronRight, Clock, Download } from 'lucide-react';
import { useCallback, useMemo, useState } from 'react';
import { Link } from 'react-router';
import { addDays, localIsoDate } from '../../../../domain/dates';
import { formatDuration } from '../../../../domain/durations';
import type { TeamDto } from '../../../../domain/schemas/team';
import type { TimeEntriesQuery, TimeEntryDto } from '../../../../domain/schemas/time';
import { Button } from '../../../components/ui/button';
import { EmptyState } from '../../../components/ui/empty-state';
import { SelectField } from '../../../components/ui/field';
import { LoadError } from '../../../components/ui/load-error';
import { PageHeader } from '../../../components/ui/page-header';
import { Spinner } from '../../../components/ui/spinner';
import { saveBlob } from '../../../lib/download';
import { errorText, toastError } from '../../../lib/errors';
import { deleteTimeEntry, invalidateTime, logTime, timeEntriesQueryOptions, updateTimeEntry } from '../../../lib/queries/time';
import { teamsQueryOptions } from '../../../lib/queries/teams';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useUrlParams } from '../../../lib/use-url-params';
import { useAuthStore } from '../../../stores/auth-store';
import { buildGrid, type CellEdit, csvFileName, DAYS_A_WEEK, timesheetCsv, weekStart, weekTitle } from '../timesheet-data';
import { TEXT } from '../timesheet-text';
import { TimesheetGrid } from './timesheet-grid';

/** Teams whose members' time the caller may read and change (decision 0027: owners and admins). */
const runs = (team: TeamDto) => team.myRole === 'owner' || team.myRole === 'admin';

interface Person {
  id: string;
  name: string;
}

/**
 * /timesheet (issue 39): a person's week (Monday to Sunday) as a grid of task rows × days with totals, edited in place;
 * `?week=<a day of it>`; owners and admins pick `?team=` then `?user=` to see (and correct) a member's week in that
 * team. 'Download CSV' saves the shown week's entries.
 */
export function TimesheetPage() {
  useDocumentTitle(TEXT.title);
  const [params, setParams] = useUrlParams();
  const me = useAuthStore((s) => s.user);
  const today = localIsoDate();
  const monday = weekStart(params.get('week'), today);
  const days = useMemo(() => Array.from({ length: DAYS_A_WEEK }, (_, i) => addDays(monday, i)), [monday]);

  const teams = useQuery(teamsQueryOptions());
  const teamParam = params.get('team');
  const runTeams = (teams.data ?? []).filter(runs);
  const team = teamParam ? runTeams.find((t) => t.id === teamParam) : undefined;
  const members = useMemo(
    () => [...(team?.members ?? [])].sort((a, b) => a.user.fullName.localeCompare(b.user.fullName)),
    [team],
  );
  const member = team
    ? (members.find((m) => m.userId === params.get('user')) ?? members.find((m) => m.userId === me?.id))
    : undefined;
  const person: Person | null = member
    ? { id: member.userId, name: member.user.fullName }
    : me
      ? { id: me.id, name: me.fullName }
      : null;
  const isSelf = person?.id === me?.id;

  const query: TimeEntriesQuery = {
    from: monday,
    to: addDays(monday, DAYS_A_WEEK - 1),
    ...(team && member ? { teamId: team.id, userId: member.userId } : {}),
  };
  // With a team in the URL, wait for the teams: the caller's own week is not what was asked for.
  const entries = useQuery({
    ...timeEntriesQueryOptions(query),
    enabled: Boolean(me) && (!teamParam || teams.isFetched),
  });
  const grid = useMemo(() => (entries.data ? buildGrid(entries.data, monday) : null), [entries.data, monday]);

  const qc = useQueryClient();
  const [invalid, setInvalid] = useState<string | null>(null);
  const [announced, setAnnounced] = useState('');
  const onEdit = useCallback(
    async (taskId: string, date: string, what: string, edit: Exclude<CellEdit, { kind: 'none' | 'invalid' }>) => {
      try {
        if (edit.kind === 'create') await logTime(taskId, { date, minutes: edit.minutes, note: null });
        else if (edit.kind === 'update') await updateTimeEntry(edit.entryId, { minutes: edit.minutes });
        else await deleteTimeEntry(edit.entryId);
        setAnnounced(edit.kind === 'delete' ? TEXT.deleted(what) : TEXT.saved(`${formatDuration(edit.minutes)}, ${what}`));
      } catch (error) {
        toastError(error, TEXT.saveFailed);
        throw error;
      } finally {
        await invalidateTime(qc);
      }
    },
    [qc],
  );

  const step = (weeks: number) => setParams({ week: addDays(monday, 7 * weeks) });
  const title = weekTitle(monday);
  const teamName = (teamId: string) => teams.data?.find((t) => t.id === teamId)?.name ?? '';
  const download = (rows: TimeEntryDto[]) => {
    const csv = timesheetCsv(rows, teamName);
    // The byte-order mark tells Excel the file is UTF-8, as the Analytics page's downloads do.
    saveBlob(new Blob(['\uFEFF', csv], { type: 'text/csv;charset=utf-8' }), csvFileName(person?.name ?? '', monday));
  };

  return (
    <div className="mx-auto min-w-0 max-w-7xl">
      <PageHeader
        title={TEXT.title}
        subtitle={isSelf || !person ? TEXT.subtitleSelf : TEXT.subtitleOther(person.name)}
        actions={
          <Button variant="secondary" onClick={() => entries.data && download(entries.data)} disabled={!entries.data}>
            <Download className="h-4 w-4" aria-hidden />
            {TEXT.downloadCsv}
          </Button>
        }
      />
      <div className="mb-4 flex flex-wrap items-end justify-between gap-4">
        <div className="flex min-w-0 flex-wrap items-center gap-2">
          <Button variant="secondary" size="sm" onClick={() => step(-1)}>
            <ChevronLeft className="h-4 w-4" aria-hidden />
            {TEXT.previousWeek}
          </Button>
          <Button
            variant="secondary"
            size="sm"
            onClick={() => setParams({ week: null })}
            disabled={monday === weekStart(null, today)}
          >
            {TEXT.thisWeek}
          </Button>
          <Button variant="secondary" size="sm" onClick={() => step(1)}>
            {TEXT.nextWeek}
            <ChevronRight className="h-4 w-4" aria-hidden />
          </Button>
          <h2 className="ml-1 text-lg font-semibold" aria-live="polite" data-testid="timesheet-week">
            {title}
          </h2>
        </div>
        {runTeams.length > 0 && (
          <div className="flex flex-wrap items-end gap-3">
            <SelectField
              label={TEXT.team}
              value={team?.id ?? ''}
              onChange={(e) => setParams({ team: e.target.value || null, user: null })}
              className="w-52"
            >
              <option value="">{TEXT.myTime}</option>
              {runTeams.map((t) => (
                <option key={t.id} value={t.id}>
                  {t.name}
                </option>
              ))}
            </SelectField>
            {team && (
              <SelectField
                label={TEXT.person}
                value={member?.userId ?? ''}
                onChange={(e) => setParams({ user: e.target.value === me?.id ? null : e.target.value })}
                className="w-52"
              >
                {members.map((m) => (
                  <option key={m.userId} value={m.userId}>
                    {m.user.fullName}
                  </option>
                ))}
              </SelectField>
            )}
          </div>
        )}
      </div>
      <p className="sr-only" role="status">
        {announced}
      </p>
      {invalid && (
        <p role="alert" className="mb-3 text-sm font-medium text-red-700 dark:text-red-400">
          {invalid}
        </p>
      )}
      {entries.isPending ? (
        <Spinner label={TEXT.loading} />
      ) : entries.isError ? (
        <LoadError
          text={errorText(entries.error, TEXT.loadFailed)}
          onRetry={() => void entries.refetch()}
          isRetrying={entries.isRefetching}
        />
      ) : grid && grid.rows.length === 0 ? (
        <EmptyState
          icon={<Clock className="h-8 w-8" aria-hidden />}
          title={TEXT.emptyTitle}
          message={isSelf || !person ? TEXT.emptySelf : TEXT.emptyOther(person.name)}
          action={
            isSelf ? (
              <Link to="/my-work" className="text-sm font-medium text-brand-700 hover:underline dark:text-indigo-300">
                {TEXT.goToMyWork}
              </Link>
            ) : undefined
          }
        />
      ) : (
        grid &&
        person && (
          <TimesheetGrid
            grid={grid}
            days={days}
            today={today}
            caption={TEXT.caption(isSelf ? 'you' : person.name, title)}
            canCreate={isSelf}
            canEdit={(entry) => entry.userId === me?.id || Boolean(team)}
            onEdit={onEdit}
            onInvalid={setInvalid}
          />
        )
      )}
    </div>
  );
}
