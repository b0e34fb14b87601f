import { useQuery } from '@tanstack/react-query';
import { BarChart3 } from 'lucide-react';
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { localIsoDate } from '../../../../domain/dates';
import type { AnalyticsDto, AnalyticsQuery } from '../../../../domain/schemas/analytics';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { EmptyState } from '../../../components/ui/empty-state';
import { SelectField } from '../../../components/ui/field';
import { PageHeader } from '../../../components/ui/page-header';
import { errorText } from '../../../lib/errors';
import { useMyFields } from '../../../lib/queries/custom-fields';
import { projectsQueryOptions } from '../../../lib/queries/projects';
import { teamsQueryOptions } from '../../../lib/queries/teams';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useUrlParams } from '../../../lib/use-url-params';
import {
  ageingTable,
  burnupTable,
  csvFileName,
  cumulativeFlowTable,
  cycleTimeTable,
  distributionTable,
  isScopeEmpty,
  overdueTable,
  rangeLabel,
  throughputTable,
  wipTable,
  workloadTable,
} from '../analytics-data';
import { readScope, type Scope, scopeChanges, scopeQuery } from '../analytics-scope';
import { CHARTS, TEXT } from '../analytics-text';
import { useAnalytics, useCumulativeFlow } from '../api/get-analytics';
import { ChartSection } from './chart-section';
import {
  BurnupChart,
  CumulativeFlowChart,
  CycleTimeChart,
  DistributionChart,
  OverdueChart,
  ThroughputChart,
  WipChart,
  WorkloadChart,
} from './charts';
import { ScopeControls } from './scope-controls';
import { TimeSections } from './time-charts';

/** /analytics: throughput, cycle time, burn-up, work in progress and ageing, workload and overdue, for a scope in the URL. */
export function AnalyticsPage() {
  useDocumentTitle(TEXT.title);
  const [params, setParams] = useUrlParams();
  const search = params.toString();
  // Keyed on the URL's text: the params object is new on every render.
  const urlScope = useMemo(() => readScope(new URLSearchParams(search)), [search]);
  const teams = useQuery(teamsQueryOptions());
  const projects = useQuery(projectsQueryOptions());
  const fields = useMyFields();
  // 'Split by' (issue 38): the Select fields of the scope's team(s); a field the scope does not have is not asked for.
  const scopeTeam = urlScope.projectId
    ? projects.data?.find((p) => p.id === urlScope.projectId)?.teamId
    : urlScope.teamId || undefined;
  const splitFields = (fields.data ?? []).filter(
    (f) => f.type === 'select' && !f.archived && (urlScope.teamId || urlScope.projectId ? f.teamId === scopeTeam : true),
  );
  const splitBy = splitFields.some((f) => f.id === urlScope.splitBy) ? urlScope.splitBy : '';
  const scope = { ...urlScope, splitBy };
  const { query } = scopeQuery(scope);
  const analytics = useAnalytics(query);
  const today = localIsoDate();
  const dto = analytics.data;

  const changeScope = (change: Partial<Scope>) => setParams(scopeChanges(change));

  return (
    <div className="min-w-0 space-y-6">
      <PageHeader title={TEXT.title} subtitle={TEXT.subtitle} />
      <ScopeControls
        scope={scope}
        teams={teams.data ?? []}
        projects={projects.data ?? []}
        today={today}
        isLoaded={teams.isSuccess && projects.isSuccess}
        shown={dto ? { from: dto.scope.from, to: dto.scope.to } : undefined}
        onChange={changeScope}
        splitFields={splitFields.map((f) => ({
          id: f.id,
          // With several teams in the scope, two fields may share a name: the team says which.
          name:
            !scopeTeam && splitFields.some((g) => g.id !== f.id && g.name === f.name)
              ? `${f.name} (${teams.data?.find((t) => t.id === f.teamId)?.name ?? ''})`
              : f.name,
        }))}
        splitBy={splitBy}
      />
      {!query ? null : analytics.isPending ? (
        <AnalyticsSkeleton />
      ) : analytics.isError ? (
        <Card className="flex flex-col items-center gap-3 px-6 py-10 text-center">
          <p role="alert" className="text-sm font-medium text-red-700 dark:text-red-400">
            {errorText(analytics.error, TEXT.loadFailed)}
          </p>
          <Button variant="secondary" onClick={() => void analytics.refetch()} isLoading={analytics.isRefetching}>
            {TEXT.retry}
          </Button>
        </Card>
      ) : (
        <Figures dto={analytics.data} query={query} isUpdating={analytics.isPlaceholderData} />
      )}
    </div>
  );
}

function Figures({ dto, query, isUpdating }: { dto: AnalyticsDto; query: AnalyticsQuery; isUpdating: boolean }) {
  const date = dto.scope.to;
  const range = rangeLabel(dto.scope.from, dto.scope.to);
  return (
    <div className="space-y-4">
      <p className="text-sm text-slate-600 dark:text-slate-300" aria-live="polite">
        {range} · {dto.scope.timeZone}
        {isUpdating && <span className="ml-2 font-medium">{TEXT.updating}</span>}
      </p>
      {isScopeEmpty(dto) ? (
        <EmptyState
          icon={<BarChart3 className="h-8 w-8" aria-hidden />}
          title={TEXT.emptyTitle}
          message={TEXT.emptyMessage}
          action={
            <Link
              to="/tasks"
              className="inline-flex h-10 items-center rounded-lg bg-brand-600 px-4 text-sm font-medium text-white hover:bg-brand-700"
            >
              {TEXT.goToTasks}
            </Link>
          }
        />
      ) : (
        <div
          className={isUpdating ? 'grid grid-cols-1 gap-6 opacity-60 xl:grid-cols-2' : 'grid grid-cols-1 gap-6 xl:grid-cols-2'}
        >
          <ChartSection {...CHARTS.throughput} table={throughputTable(dto)} fileName={csvFileName('throughput', date)}>
            <ThroughputChart dto={dto} />
          </ChartSection>
          <ChartSection {...CHARTS['cycle-time']} table={cycleTimeTable(dto)} fileName={csvFileName('cycle-time', date)}>
            <CycleTimeChart dto={dto} />
          </ChartSection>
          <ChartSection
            {...CHARTS['cycle-time-distribution']}
            table={distributionTable(dto)}
            fileName={csvFileName('cycle-time-distribution', date)}
          >
            <DistributionChart dto={dto} />
          </ChartSection>
          <BurnupSection dto={dto} date={date} />
          <ChartSection {...CHARTS.wip} table={wipTable(dto)} fileName={csvFileName('wip', date)}>
            <WipChart dto={dto} />
          </ChartSection>
          <ChartSection
            {...CHARTS.ageing}
            table={ageingTable(dto)}
            fileName={csvFileName('ageing', date)}
            tableOnly
            emptyTable={TEXT.noAgeing}
          />
          <ChartSection
            {...CHARTS.workload}
            table={workloadTable(dto)}
            fileName={csvFileName('workload', date)}
            emptyTable={TEXT.noWorkload}
          >
            {dto.workload.length > 0 ? <WorkloadChart dto={dto} /> : <Quiet>{TEXT.noWorkload}</Quiet>}
          </ChartSection>
          <ChartSection {...CHARTS.overdue} table={overdueTable(dto)} fileName={csvFileName('overdue', date)}>
            <OverdueChart dto={dto} />
          </ChartSection>
          <CumulativeFlowSection query={query} date={date} />
          <TimeSections query={query} />
        </div>
      )}
    </div>
  );
}

/** Burn-up: one project at a time, picked here (the largest first); with a project in the scope, that one. */
function BurnupSection({ dto, date }: { dto: AnalyticsDto; date: string }) {
  const [picked, setPicked] = useState('');
  const project = dto.burnup.find((b) => b.projectId === picked) ?? dto.burnup[0];
  if (!project) {
    return (
      <ChartSection
        {...CHARTS['burn-up']}
        table={{ caption: CHARTS['burn-up'].title, columns: [{ label: 'Week starting' }], rows: [] }}
        fileName={csvFileName('burn-up', date)}
        tableOnly
        emptyTable={TEXT.noBurnup}
      />
    );
  }
  return (
    <ChartSection
      {...CHARTS['burn-up']}
      table={burnupTable(project)}
      fileName={csvFileName('burn-up', date, project.projectName)}
      controls={
        dto.burnup.length > 1 ? (
          <SelectField label={TEXT.burnupProject} value={project.projectId} onChange={(e) => setPicked(e.target.value)}>
            {dto.burnup.map((b) => (
              <option key={b.projectId} value={b.projectId}>
                {b.projectName}
              </option>
            ))}
          </SelectField>
        ) : (
          <p className="text-sm font-medium">{project.projectName}</p>
        )
      }
    >
      <BurnupChart project={project} />
    </ChartSection>
  );
}

/**
 * Cumulative flow (issue 36): one project's tasks per status and day, over the page's period; with no project in the
 * scope, a note saying to pick one (workflows differ between projects).
 */
function CumulativeFlowSection({ query, date }: { query: AnalyticsQuery; date: string }) {
  const { teamId: _, projectId, ...period } = query;
  const flow = useCumulativeFlow(projectId ? { projectId, ...period } : undefined);
  const chart = CHARTS['cumulative-flow'];
  if (!projectId || !flow.data) {
    return (
      <Card className="min-w-0 p-4 sm:p-5 xl:col-span-2">
        <section aria-label={chart.title} className="flex flex-col gap-3">
          <h2 className="text-base font-semibold">{chart.title}</h2>
          {!projectId ? (
            <Quiet>{TEXT.pickProject}</Quiet>
          ) : flow.isError ? (
            <p role="alert" className="text-sm font-medium text-red-700 dark:text-red-400">
              {errorText(flow.error, TEXT.flowLoadFailed)}
            </p>
          ) : (
            <div role="status" className="h-56 animate-pulse rounded-lg bg-slate-100 dark:bg-slate-800">
              <span className="sr-only">{TEXT.loading}</span>
            </div>
          )}
        </section>
      </Card>
    );
  }
  return (
    <ChartSection
      {...chart}
      className="xl:col-span-2"
      table={cumulativeFlowTable(flow.data)}
      fileName={csvFileName('cumulative-flow', date)}
    >
      <CumulativeFlowChart dto={flow.data} />
    </ChartSection>
  );
}

function Quiet({ children }: { children: string }) {
  return (
    <p className="rounded-lg border border-dashed border-slate-300 px-4 py-8 text-center text-sm text-slate-600 dark:border-slate-700 dark:text-slate-300">
      {children}
    </p>
  );
}

/** Shaped like the page: a card per chart, pulsing until the figures arrive. */
function AnalyticsSkeleton() {
  return (
    <div role="status" className="grid grid-cols-1 gap-6 xl:grid-cols-2">
      <span className="sr-only">{TEXT.loading}</span>
      {Array.from({ length: 4 }, (_, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity.
        <Card key={i} className="space-y-3 p-5">
          <div className="h-5 w-32 animate-pulse rounded bg-slate-200 dark:bg-slate-700" aria-hidden />
          <div className="h-4 w-2/3 animate-pulse rounded bg-slate-100 dark:bg-slate-800" aria-hidden />
          <div className="h-56 animate-pulse rounded-lg bg-slate-100 dark:bg-slate-800" aria-hidden />
        </Card>
      ))}
    </div>
  );
}
