import { useQuery } from '@tanstack/react-query';
import { CircleCheckBig, Clock, UserX } from 'lucide-react';
import { useCallback, useMemo } from 'react';
import { Link } from 'react-router';
import { localIsoDate } from '../../../../domain/dates';
import {
  groupMyWork,
  MY_WORK_GROUPS,
  MY_WORK_SORTS,
  type MyWorkSort,
  parseMyWorkSort,
  sortMyWork,
} from '../../../../domain/my-work';
import type { TaskDto } from '../../../../domain/schemas/task';
import type { TeamDto } from '../../../../domain/schemas/team';
import { Button } from '../../../components/ui/button';
import { EmptyState } from '../../../components/ui/empty-state';
import { SelectField } from '../../../components/ui/field';
import { PageHeader } from '../../../components/ui/page-header';
import { Spinner } from '../../../components/ui/spinner';
import { Switch } from '../../../components/ui/switch';
import { teamsQueryOptions } from '../../../lib/queries/teams';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useUrlParams } from '../../../lib/use-url-params';
import { useAuthStore } from '../../../stores/auth-store';
import { useChangeTaskStatus } from '../api/change-task-status';
import { useMyWork } from '../api/get-my-work';
import type { MyWorkFilter } from '../api/my-work-keys';
import { MyWorkGroup, type TaskCardComponent } from './my-work-group';
import { emptyPage, pageTitle, SORT_LABELS, type Subject, subtitle, toggleLabel } from './my-work-text';

export type { TaskCardComponent, TaskCardProps } from './my-work-group';

export interface MyWorkPageProps {
  /** The board's card (passed in by the route: a feature does not import another). */
  TaskCard: TaskCardComponent;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A person in one of the caller's teams, by user id. */
function findPerson(teams: TeamDto[] | undefined, userId: string) {
  for (const team of teams ?? []) {
    const member = team.members.find((m) => m.userId === userId);
    if (member) return member.user;
  }
  return undefined;
}

/**
 * /my-work: every open task assigned to me across my teams (or that I created: 'Created by me'), grouped by when it
 * is due and sorted as the URL says. `?user=<id>`: a teammate's work, as far as my teams show it.
 */
export function MyWorkPage({ TaskCard }: MyWorkPageProps) {
  const [params, setParams] = useUrlParams();
  const me = useAuthStore((s) => s.user);
  const userParam = params.get('user');
  const otherId = userParam && userParam !== me?.id ? userParam : null;
  const sort = parseMyWorkSort(params.get('sort'));
  const createdBy = params.get('created') === '1';

  const teams = useQuery({ ...teamsQueryOptions(), enabled: Boolean(otherId) });
  const other = otherId ? findPerson(teams.data, otherId) : undefined;
  const subject: Subject | null = !otherId
    ? { isSelf: true, fullName: me?.fullName ?? '', firstName: me?.firstName ?? '' }
    : other
      ? { isSelf: false, fullName: other.fullName, firstName: other.firstName }
      : null;
  const subjectId = otherId ?? me?.id ?? '';
  const filter: MyWorkFilter = createdBy ? { creatorId: subjectId } : { assigneeId: subjectId };
  const work = useMyWork(filter, Boolean(subjectId) && (!otherId || (Boolean(other) && UUID.test(otherId))));

  const title = subject ? pageTitle(subject) : otherId && teams.isPending ? 'Work' : 'Person not found';
  useDocumentTitle(otherId ? title : 'My work');

  const today = localIsoDate();
  const groups = useMemo(() => (work.data ? groupMyWork(sortMyWork(work.data, sort), today) : null), [work.data, sort, today]);
  const openCount = groups ? MY_WORK_GROUPS.reduce((n, g) => n + groups[g].length, 0) : null;

  const change = useChangeTaskStatus();
  const onStatusChange = useCallback((task: TaskDto, status: string) => change.mutate({ task, status }), [change.mutate]);

  if (otherId && !subject) {
    if (teams.isPending) return <Spinner label="Loading..." />;
    if (teams.isError) return <LoadError onRetry={() => void teams.refetch()} />;
    return (
      <div>
        <PageHeader title="Person not found" />
        <EmptyState
          icon={<UserX className="h-8 w-8" aria-hidden />}
          title="Person not found"
          message="This person is not in any of your teams."
          action={
            <Link to="/my-work" className="text-sm font-medium text-brand-700 hover:underline dark:text-indigo-300">
              Back to My work
            </Link>
          }
        />
      </div>
    );
  }

  return (
    <div className="mx-auto max-w-7xl">
      <PageHeader
        title={title}
        subtitle={subject ? subtitle(subject, createdBy, openCount) : undefined}
        actions={
          <div className="flex flex-wrap items-end gap-4">
            {!otherId && (
              <Link
                to="/timesheet"
                className="inline-flex h-10 items-center gap-2 rounded-lg border border-slate-300 px-3 text-sm font-medium text-slate-800 hover:bg-slate-50 dark:border-slate-600 dark:text-slate-100 dark:hover:bg-slate-800"
              >
                <Clock className="h-4 w-4" aria-hidden />
                Timesheet
              </Link>
            )}
            {subject && (
              <Switch
                label={toggleLabel(subject)}
                checked={createdBy}
                onCheckedChange={(on) => setParams({ created: on ? '1' : null })}
                className="h-10"
              />
            )}
            <SelectField
              label="Sort by"
              value={sort}
              onChange={(e) => setParams({ sort: e.target.value === 'due' ? null : (e.target.value as MyWorkSort) })}
              className="w-44"
            >
              {MY_WORK_SORTS.map((s) => (
                <option key={s} value={s}>
                  {SORT_LABELS[s]}
                </option>
              ))}
            </SelectField>
          </div>
        }
      />
      {work.isPending ? (
        <Spinner label="Loading tasks..." />
      ) : work.isError ? (
        <LoadError onRetry={() => void work.refetch()} />
      ) : openCount === 0 && subject ? (
        <EmptyState
          icon={<CircleCheckBig className="h-8 w-8" aria-hidden />}
          {...emptyPage(subject, createdBy)}
          action={
            <Link to="/tasks" className="text-sm font-medium text-brand-700 hover:underline dark:text-indigo-300">
              Go to Tasks
            </Link>
          }
        />
      ) : (
        groups && (
          <div className="space-y-8">
            {MY_WORK_GROUPS.map((group) => (
              <MyWorkGroup key={group} group={group} tasks={groups[group]} TaskCard={TaskCard} onStatusChange={onStatusChange} />
            ))}
          </div>
        )
      )}
    </div>
  );
}

function LoadError({ onRetry }: { onRetry: () => void }) {
  return (
    <div role="alert">
      <EmptyState
        title="Could not load tasks"
        message="Check your connection and try again."
        action={
          <Button variant="secondary" onClick={onRetry}>
            Try again
          </Button>
        }
      />
    </div>
  );
}
