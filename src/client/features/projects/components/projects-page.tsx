import { FolderKanban, LayoutGrid, List, Search, X } from 'lucide-react';
import { type ReactNode, useCallback, useMemo, useState } from 'react';
import { PROJECT_STATUS_TILES, type ProjectStatus } from '../../../../domain/constants';
import { MSG } from '../../../../domain/messages';
import { localIsoDate, type ProjectTile, projectStats, projectTileCounts } from '../../../../domain/projects';
import type { ListProjectsQuery, ProjectDto } from '../../../../domain/schemas/project';
import { Button } from '../../../components/ui/button';
import { CreateButton } from '../../../components/ui/create-button';
import { EmptyState } from '../../../components/ui/empty-state';
import { named, OptionsSelect } from '../../../components/ui/options-select';
import { PageHeader } from '../../../components/ui/page-header';
import { SearchField } from '../../../components/ui/search-field';
import { Spinner } from '../../../components/ui/spinner';
import { cn } from '../../../lib/cn';
import { errorText } from '../../../lib/errors';
import { useUrlSearchBox } from '../../../lib/use-debounced-value';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useWorkRights } from '../../../lib/use-work-rights';
import { canContribute } from '../../../../domain/permissions';
import { useOpenOnNewFlag, useUrlParams } from '../../../lib/use-url-params';
import { useProjects } from '../api/get-projects';
import { useTeamOptions } from '../api/get-team-options';
import { ProjectCard } from './project-card';
import { ProjectModal } from './project-modal';
import { ProjectStatCards, StatusTiles } from './project-overview';
import { ProjectTable } from './project-table';

type ViewMode = 'grid' | 'list';
type ModalState = { mode: 'create' } | { mode: 'edit'; project: ProjectDto } | null;

const isTileStatus = (s: string | null): s is (typeof PROJECT_STATUS_TILES)[number] =>
  (PROJECT_STATUS_TILES as readonly string[]).includes(s ?? '');

/** Filters live in the URL so they survive a reload: ?team=&status=&q=&view=list */
function useProjectFilters() {
  const [params, setParams] = useUrlParams();
  const status = params.get('status');
  const filters: ListProjectsQuery = {
    teamId: params.get('team') || undefined,
    status: isTileStatus(status) ? (status as ProjectStatus) : undefined,
    q: params.get('q')?.trim() || undefined,
  };
  const view: ViewMode = params.get('view') === 'list' ? 'list' : 'grid';
  const set = useCallback((key: string, value: string | undefined) => setParams({ [key]: value }), [setParams]);
  const clear = () => setParams({ team: null, status: null, q: null });
  return { filters, rawQ: params.get('q') ?? '', view, set, clear };
}

export function ProjectsPage() {
  useDocumentTitle('Projects');
  const { filters, rawQ, view, set, clear } = useProjectFilters();
  const [search, setSearch] = useUrlSearchBox(rawQ, (q) => set('q', q));
  const [modal, setModal] = useState<ModalState>(null);
  const today = localIsoDate();

  // Stat cards and tiles count every project; the list shows the filtered ones (filtered on the server).
  const all = useProjects({});
  const hasFilters = Boolean(filters.teamId || filters.status || filters.q);
  const filtered = useProjects(filters);
  const teams = useTeamOptions();

  const stats = useMemo(() => projectStats(all.data ?? []), [all.data]);
  const counts = useMemo(() => projectTileCounts(all.data ?? []), [all.data]);
  const selectedTile: ProjectTile = filters.status && isTileStatus(filters.status) ? filters.status : 'all';
  const teamOptions = teams.data ?? [];
  // A viewer or a guest of every team adds no projects (issue 41): no 'New Project', and a new one goes only into a team
  // where the caller adds work.
  const canCreate = useWorkRights().canAddToTeam();
  const createTeams = useMemo(() => teamOptions.filter((t) => canContribute(t.myRole)), [teamOptions]);
  const openCreate = () => setModal({ mode: 'create' });
  const openEdit = (project: ProjectDto) => setModal({ mode: 'edit', project });
  useOpenOnNewFlag(openCreate);
  const clearFilters = () => {
    setSearch('');
    clear();
  };

  const list = filtered.data ?? [];
  const isLoading = all.isPending || filtered.isPending;
  const error = all.error ?? filtered.error;

  return (
    <div className="space-y-6">
      <PageHeader
        title="Projects"
        subtitle="Manage and track your team's projects"
        actions={
          <>
            <div
              role="group"
              aria-label="View"
              className="inline-flex rounded-lg border border-slate-300 p-0.5 dark:border-slate-600"
            >
              <ViewButton
                active={view === 'list'}
                onClick={() => set('view', 'list')}
                icon={<List className="h-4 w-4" aria-hidden />}
              >
                List View
              </ViewButton>
              <ViewButton
                active={view === 'grid'}
                onClick={() => set('view', undefined)}
                icon={<LayoutGrid className="h-4 w-4" aria-hidden />}
              >
                Grid View
              </ViewButton>
            </div>
            {canCreate && <CreateButton onClick={openCreate}>New Project</CreateButton>}
          </>
        }
      />

      <ProjectStatCards stats={stats} />
      <StatusTiles
        counts={counts}
        selected={selectedTile}
        onSelect={(tile) => set('status', tile === 'all' ? undefined : tile)}
      />

      <div className="flex flex-col gap-3 sm:flex-row sm:items-end">
        <OptionsSelect
          label="Team"
          srOnlyLabel
          className="sm:w-56"
          emptyOption="All Teams"
          options={named(teamOptions)}
          value={filters.teamId ?? ''}
          onChange={(e) => set('team', e.target.value || undefined)}
        />
        <SearchField
          label="Search projects"
          placeholder="Search projects..."
          value={search}
          onValueChange={setSearch}
          className="flex-1"
        />
        {(hasFilters || search) && (
          <Button variant="secondary" onClick={clearFilters}>
            <X className="h-4 w-4" aria-hidden />
            Clear Filters
          </Button>
        )}
      </div>

      {error ? (
        <EmptyState
          title={MSG.loadFailed}
          message={errorText(error, '')}
          action={
            <Button variant="secondary" onClick={() => void Promise.all([all.refetch(), filtered.refetch()])}>
              Try again
            </Button>
          }
        />
      ) : isLoading ? (
        <Spinner label="Loading projects..." />
      ) : (all.data?.length ?? 0) === 0 ? (
        <EmptyState
          icon={<FolderKanban className="h-10 w-10" />}
          title="No projects yet"
          message="Get started by creating your first project"
          action={<CreateButton onClick={openCreate}>Create Project</CreateButton>}
        />
      ) : list.length === 0 ? (
        <EmptyState
          icon={<Search className="h-10 w-10" />}
          title="No projects found"
          message="Try adjusting your search or filters"
        />
      ) : view === 'grid' ? (
        <ul aria-label="Projects" className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
          {list.map((p) => (
            <li key={p.id} className="h-full">
              <ProjectCard project={p} today={today} onEdit={openEdit} />
            </li>
          ))}
        </ul>
      ) : (
        <ProjectTable projects={list} today={today} onOpen={openEdit} />
      )}

      {modal && (
        <ProjectModal
          project={modal.mode === 'edit' ? modal.project : undefined}
          teams={modal.mode === 'create' ? createTeams : teamOptions}
          defaultTeamId={filters.teamId}
          onClose={() => setModal(null)}
        />
      )}
    </div>
  );
}

function ViewButton({
  active,
  onClick,
  icon,
  children,
}: {
  active: boolean;
  onClick: () => void;
  icon: ReactNode;
  children: string;
}) {
  return (
    <button
      type="button"
      aria-pressed={active}
      onClick={onClick}
      className={cn(
        'inline-flex h-9 items-center gap-1.5 rounded-md px-3 text-sm font-medium transition-colors',
        active ? 'bg-brand-600 text-white' : 'text-slate-700 hover:bg-slate-100 dark:text-slate-200 dark:hover:bg-slate-800',
      )}
    >
      {icon}
      {children}
    </button>
  );
}
