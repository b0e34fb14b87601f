import { Crown, Search, Share2, Users, UsersRound } from 'lucide-react';
import { useState } from 'react';
import type { TeamDto } from '../../../../domain/schemas/team';
import { teamStats } from '../../../../domain/teams';
import { Button } from '../../../components/ui/button';
import { CreateButton } from '../../../components/ui/create-button';
import { EmptyState } from '../../../components/ui/empty-state';
import { PageHeader } from '../../../components/ui/page-header';
import { SearchField } from '../../../components/ui/search-field';
import { Spinner } from '../../../components/ui/spinner';
import { StatCard } from '../../../components/ui/stat-card';
import { errorText } from '../../../lib/errors';
import { useDebouncedValue } from '../../../lib/use-debounced-value';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useOpenOnNewFlag } from '../../../lib/use-url-params';
import { useAuthStore } from '../../../stores/auth-store';
import { useTeams } from '../api/get-teams';
import { TeamCard } from './team-card';
import { TeamModal } from './team-modal';

type ModalState = { mode: 'create' } | { mode: 'edit'; teamId: string } | null;

export function TeamsPage() {
  useDocumentTitle('Teams');
  const userId = useAuthStore((s) => s.user?.id);
  const [search, setSearch] = useState('');
  const q = useDebouncedValue(search.trim());
  const [modal, setModal] = useState<ModalState>(null);

  // All my teams drive the stats and the modal; the server filters the visible list by `q`.
  const all = useTeams();
  const filtered = useTeams(q);
  const teams = q ? filtered.data : all.data;
  const stats = teamStats(all.data ?? [], userId);
  const editing = modal?.mode === 'edit' ? all.data?.find((t) => t.id === modal.teamId) : undefined;

  const openCreate = () => setModal({ mode: 'create' });
  const openEdit = (team: TeamDto) => setModal({ mode: 'edit', teamId: team.id });
  useOpenOnNewFlag(openCreate);

  return (
    <div>
      <PageHeader
        title="Teams"
        subtitle="Manage your teams and collaborate with members"
        actions={<CreateButton onClick={openCreate}>New Team</CreateButton>}
      />

      <div className="mb-6 grid grid-cols-2 gap-4 lg:grid-cols-4">
        <StatCard label="Total Teams" value={stats.totalTeams} icon={<UsersRound className="h-5 w-5" />} />
        <StatCard label="Teams Owned" value={stats.teamsOwned} icon={<Crown className="h-5 w-5" />} />
        <StatCard label="Teams Shared" value={stats.teamsShared} icon={<Share2 className="h-5 w-5" />} />
        <StatCard label="Total Members" value={stats.totalMembers} icon={<Users className="h-5 w-5" />} />
      </div>

      <div className="mb-6 flex flex-wrap items-end gap-3">
        <SearchField
          label="Search teams"
          placeholder="Search teams..."
          value={search}
          onValueChange={setSearch}
          className="w-full max-w-md flex-1"
        />
        {search && (
          <Button variant="secondary" onClick={() => setSearch('')}>
            Clear Search
          </Button>
        )}
      </div>

      {all.isPending || (q && filtered.isPending) ? (
        <Spinner label="Loading teams..." />
      ) : all.isError ? (
        <EmptyState
          title="Failed to load data"
          message={errorText(all.error, '')}
          action={
            <Button variant="secondary" onClick={() => void all.refetch()}>
              Try again
            </Button>
          }
        />
      ) : !teams || teams.length === 0 ? (
        q ? (
          <EmptyState icon={<Search className="h-8 w-8" />} title="No teams found" message="Try adjusting your search terms" />
        ) : (
          <EmptyState
            icon={<UsersRound className="h-8 w-8" />}
            title="No teams yet"
            message="Create your first team to start collaborating with others"
            action={<Button onClick={openCreate}>Create Your First Team</Button>}
          />
        )
      ) : (
        <div className="grid grid-cols-1 gap-4 md:grid-cols-2 xl:grid-cols-3">
          {teams.map((team) => (
            <TeamCard key={team.id} team={team} onOpen={openEdit} />
          ))}
        </div>
      )}

      {modal?.mode === 'create' && <TeamModal key="create" open onClose={() => setModal(null)} />}
      {modal?.mode === 'edit' && editing && <TeamModal key={editing.id} open team={editing} onClose={() => setModal(null)} />}
    </div>
  );
}
