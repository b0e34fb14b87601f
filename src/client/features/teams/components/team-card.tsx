import { format } from 'date-fns';
import { Calendar, Lock, Share2, Users } from 'lucide-react';
import { ERROR_MESSAGES } from '../../../../domain/errors';
import { canEditTeam } from '../../../../domain/permissions';
import type { TeamDto } from '../../../../domain/schemas/team';
import { avatarOverflow, memberCountLabel } from '../../../../domain/teams';
import { Card } from '../../../components/ui/card';
import { MemberAvatar } from './member-avatar';
import { RoleBadge } from './role-badge';

export interface TeamCardProps {
  team: TeamDto;
  onOpen: (team: TeamDto) => void;
}

/** A team on the Teams page; the whole card opens the team modal. */
export function TeamCard({ team, onOpen }: TeamCardProps) {
  const { shown, more } = avatarOverflow(team.members);
  // Only its owner edits a team: any other team is one shared with you.
  const isShared = !canEditTeam(team.myRole);
  return (
    <Card className="relative flex flex-col gap-3 p-5 transition-shadow focus-within:ring-2 focus-within:ring-brand-600 hover:shadow-md">
      <div className="flex items-start justify-between gap-3">
        <h2 className="min-w-0 text-lg font-semibold">
          <button
            type="button"
            onClick={() => onOpen(team)}
            className="break-words text-left outline-none after:absolute after:inset-0 after:rounded-xl after:content-['']"
          >
            {team.name}
          </button>
        </h2>
        <RoleBadge role={team.myRole} />
      </div>
      {team.description && <p className="line-clamp-2 text-sm text-slate-600 dark:text-slate-300">{team.description}</p>}
      {/* Issue 41: a team that requires SSO, seen from a session that did not come from it. */}
      {team.ssoLocked && (
        <p className="inline-flex items-center gap-1.5 text-sm font-medium text-amber-900 dark:text-amber-200">
          <Lock className="h-4 w-4 shrink-0" aria-hidden />
          {ERROR_MESSAGES.sso_required}
        </p>
      )}
      <div className="flex items-center gap-2 text-sm text-slate-600 dark:text-slate-300">
        <Users className="h-4 w-4" aria-hidden />
        <span>{memberCountLabel(team.members.length)}</span>
      </div>
      <div className="flex items-center">
        <div className="flex -space-x-2">
          {shown.map((m) => (
            <MemberAvatar key={m.id} user={m.user} />
          ))}
        </div>
        {more > 0 && <span className="ml-3 text-xs font-medium text-slate-600 dark:text-slate-300">+{more} more</span>}
      </div>
      <div className="mt-auto flex flex-wrap items-center justify-between gap-2 border-t border-slate-200 pt-3 text-xs text-slate-600 dark:border-slate-700 dark:text-slate-400">
        <span className="inline-flex items-center gap-1">
          <Calendar className="h-3.5 w-3.5" aria-hidden />
          Created {format(new Date(team.createdAt), 'MMM dd, yyyy')}
        </span>
        {isShared && (
          <span className="inline-flex items-center gap-1 font-medium text-sky-700 dark:text-sky-300">
            <Share2 className="h-3.5 w-3.5" aria-hidden />
            Shared
          </span>
        )}
      </div>
    </Card>
  );
}
