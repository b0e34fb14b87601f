/** Pure rules of the Teams page (spec §2 'Teams', §9 team card limits). */
import { type BadgeTone, LIMITS, type TeamRole } from './constants';

export interface TeamLike {
  ownerId: string;
  members: readonly unknown[];
}

export interface TeamStats {
  totalTeams: number;
  teamsOwned: number;
  teamsShared: number;
  /** The sum of active members across teams (spec §9 'Team Members stat'). */
  totalMembers: number;
}

export function teamStats(teams: readonly TeamLike[], userId: string | null | undefined): TeamStats {
  const teamsOwned = teams.filter((t) => t.ownerId === userId).length;
  return {
    totalTeams: teams.length,
    teamsOwned,
    teamsShared: teams.length - teamsOwned,
    totalMembers: teams.reduce((sum, t) => sum + t.members.length, 0),
  };
}

/** The first `limit` members to show as icons, and how many are left for '+N more'. */
export function avatarOverflow<T>(members: readonly T[], limit: number = LIMITS.teamCardAvatars): { shown: T[]; more: number } {
  return { shown: members.slice(0, limit), more: Math.max(0, members.length - limit) };
}

/** Initials for a member icon: first letters of the first two words, or '?'. */
export function initials(fullName: string): string {
  const parts = fullName.trim().split(/\s+/).filter(Boolean);
  if (parts.length === 0) return '?';
  return parts
    .slice(0, 2)
    .map((p) => p[0]!.toUpperCase())
    .join('');
}

const ROLE_ORDER: Record<TeamRole, number> = { owner: 0, admin: 1, member: 2, viewer: 3, guest: 4 };

/** Members listed owner first, then admins, members, viewers and guests; by join time within a role. */
export function sortMembers<T extends { role: TeamRole; joinedAt: string }>(members: readonly T[]): T[] {
  return [...members].sort((a, b) => ROLE_ORDER[a.role] - ROLE_ORDER[b.role] || a.joinedAt.localeCompare(b.joinedAt));
}

/**
 * Role badge colours: the owner and admins each have a distinct badge (spec §6), and so do the roles that may not
 * change the team's work (issue 41): a viewer's and a guest's badge tells them apart from a member's at a glance.
 */
const ROLE_TONES = {
  owner: 'warning',
  admin: 'info',
  member: 'secondary',
  viewer: 'primary',
  guest: 'success',
} as const satisfies Record<TeamRole, BadgeTone>;
export const teamRoleTone = (role: TeamRole): BadgeTone => ROLE_TONES[role];

/** '1 member', '3 members'. */
export const memberCountLabel = (n: number) => `${n} ${n === 1 ? 'member' : 'members'}`;
