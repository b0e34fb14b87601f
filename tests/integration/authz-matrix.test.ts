import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { and, eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { NOTIFICATION_PREFERENCE_KINDS, type TeamRole } from '../../src/domain/constants';
import { insertDefaultStatuses } from '../../src/server/db/project-statuses';
import { Sealer } from '../../src/server/modules/oidc';
import {
  apiTokens,
  customFields,
  forms,
  notes,
  noteVersions,
  notifications,
  projectGuests,
  projectStatuses,
  requestLinks,
  webhookDeliveries,
  webhooks,
  projects,
  taskAttachments,
  savedViews,
  taskChecklistItems,
  taskComments,
  taskDependencies,
  tasks,
  teamInvitations,
  teamMembers,
  teams,
  timeEntries,
  users,
} from '../../src/server/db/schema';
import { createUser, insertMember, insertTeam, sessionIdOf, signIn, uniqueEmail, type TestUser } from '../factories';
import { setupTestApp } from '../helpers/app';

/**
 * The role × route authorization matrix. Every route of the OpenAPI document must appear in TABLE
 * (a new route without a row fails this file). Each row is one request shape — path ids and body
 * ids pointing at team A's objects, or at team B's ("foreign") — and the status each caller gets:
 *
 *   anon      no token
 *   outsider  a signed-in user in no team
 *   member / admin / owner   of team A
 *   super     system super_admin, not in team A
 *   other     a member of team B only
 *   memberAB  a plain member of team A and of team B
 *   adminAB   an admin of team A and a plain member of team B
 *   viewer    a viewer of team A (issue 41): reads all of it, writes nothing but comments (the team lets viewers
 *             comment by default), follows tasks, keeps their own things, may leave
 *   guest     a guest of team A given its project (not its second project, A2): reads that project as a member
 *             does, writes only `guestTaskId` (the task assigned to them), sees nothing of A2 (404, as a stranger)
 *
 * The two-team callers are the ones that test an id in a body pointing into the other team (a
 * row's `foreignBodyId`): every id field of every request body in the document needs such a row.
 *
 * Rules (DESIGN.md): 401 anonymous; 404 for what the caller cannot see; 403 for visible but not
 * allowed; 2xx otherwise. Every cell runs on a FRESH copy of team A (same people and roles), so
 * destructive requests never disturb the next cell. Every 2xx body is also scanned for ids the
 * caller must not see (a leak). The guest's list also holds A2's ids, the word every A2 name carries (`SECRET`) and
 * team A's people they must not see (a member and a guest created afresh with each copy, who neither created nor
 * are assigned to a task of the guest's project).
 *
 * Where a row does not say, the viewer and the guest answer by the rules of decision 0031 (`byRule`): a read as the
 * member does, a write on team A is refused (403). A copy of team A is retired (its memberships deleted) when the next
 * is built, and writes that touch no team A (LEAVES_TEAM_A) keep the copy.
 */

// With an intake domain (issue 40): the intake address routes answer as on a server that receives mail.
const ctx = setupTestApp({ inbound: { domain: 'in.matrix.test', smtpPort: null, imapUrl: null, imapPollMs: 60_000 } });

const ROLES = [
  'anon',
  'outsider',
  'member',
  'admin',
  'owner',
  'viewer',
  'guest',
  'super',
  'other',
  'memberAB',
  'adminAB',
] as const;
type Role = (typeof ROLES)[number];
type Expect = Record<Role, number>;
/** A row's answers: the viewer's and the guest's may be left to the rules (`byRule`). */
type Cells = Omit<Expect, 'viewer' | 'guest'> & Partial<Pick<Expect, 'viewer' | 'guest'>>;

interface People {
  owner: TestUser;
  admin: TestUser;
  member: TestUser;
  outsider: TestUser;
  super: TestUser;
  other: TestUser;
  ownerB: TestUser;
  memberAB: TestUser;
  adminAB: TestUser;
  viewer: TestUser;
  guest: TestUser;
}

/** One team's objects. */
interface Scope {
  teamId: string;
  projectId: string;
  taskId: string;
  /** A task created by the plain member (the creator may delete it). */
  memberTaskId: string;
  /** A task created by the two-team plain member. */
  memberABTaskId: string;
  invitationId: string;
  /** A pending invitation addressed to the outsider. */
  outsiderInvitationId: string;
  /** Membership row of an extra plain member (the target of role changes and removals). */
  targetMemberId: string;
  ownerMemberId: string;
  notificationId: string;
  /** A comment by the plain member on `taskId`. */
  commentId: string;
  /** A file the plain member attached to `taskId` (its bytes are not stored). */
  attachmentId: string;
  checklistItemId: string;
  /** A task of the owner with one sub-task (issue 37): the sub-task order's rows. */
  parentTaskId: string;
  subtaskId: string;
  /** A saved view the plain member shared with the team. */
  viewId: string;
  /** On team A's copies: a fresh view of team B's plain member, shared with team B (not among `ids`). */
  foreignViewId: string;
  /** A personal API token of the plain member. */
  memberTokenId: string;
  /** A webhook of the team, and one delivery of it. */
  webhookId: string;
  deliveryId: string;
  /** A note of the team written by the plain member, and a version of it. */
  noteId: string;
  noteVersionId: string;
  /** The project's workflow (the default four): Review (no tasks), In Progress, and every status id in order. */
  reviewStatusId: string;
  inProgressStatusId: string;
  statusIds: string[];
  /** A select field of the team (issue 38). */
  fieldId: string;
  /** A time entry the plain member logged on `taskId` (issue 39). */
  timeEntryId: string;
  /** A request form of the project (issue 40), its public token and a request link's (tokens: not among `ids`). */
  formId: string;
  formToken: string;
  requestToken: string;
  /** Issue 41 (team A's copies have a viewer and a guest; team B has neither): the extra member's user id. */
  extraUserId: string;
  /** A guest of the team given no project (the target of adding a project's guest). */
  extraGuestId: string;
  /** The guest's task: in the project, created by the owner, assigned to the guest, blocked by A2's task. */
  guestTaskId: string;
  /** The team's second project (A2, not given to the guest), a task and a note of it. */
  project2Id: string;
  project2TaskId: string;
  project2NoteId: string;
  ids: string[];
  /** What the guest must never see: A2's ids and name, and the people of the team outside the guest's reach. */
  guestHidden: string[];
}

interface World {
  p: People;
  a: Scope;
  b: Scope;
  user: (r: Role) => TestUser | null;
}

interface Req {
  url: string;
  body?: unknown;
  /** SSE: only the status line is read. */
  stream?: boolean;
  /** Sent as multipart/form-data with one file in the field `file`. */
  multipart?: { fileName: string; content: string | Buffer };
}

interface Row {
  route: string;
  variant: string;
  req: (w: World, me: TestUser | null) => Req;
  expect: Cells;
  /** Super admins see every user by design: no leak scan of the admin answers. */
  noLeakScan?: boolean;
  /** Logout ends the session: the cell uses a fresh one. */
  freshSession?: boolean;
  /** The body field this variant points at team B (or one of its people). */
  foreignBodyId?: string;
}

type OneTeam = Omit<Cells, 'memberAB' | 'adminAB'>;
/**
 * Unless told otherwise, the two-team callers answer as their role in team A (`fromB`: in team B) does. The viewer and
 * the guest keep what `e` says of them (nothing: the rules decide).
 */
const withTwoTeam = (e: OneTeam, over: Partial<Expect>, fromB = false): Cells => ({
  ...e,
  memberAB: over.memberAB ?? (fromB ? e.other : e.member),
  adminAB: over.adminAB ?? (fromB ? e.other : e.admin),
});
/** The caller's own things: the viewer and the guest too. */
const allow = (ok: number, deny: Partial<Expect> = {}): Cells =>
  withTwoTeam(
    { anon: 401, outsider: ok, member: ok, admin: ok, owner: ok, viewer: ok, guest: ok, super: ok, other: ok, ...deny },
    deny,
  );
/** Team A content: members see it, everyone else gets 404; the viewer and the guest as `byRule` says unless told. */
const teamA = (ok: number, over: Partial<Expect> = {}): Cells =>
  withTwoTeam({ anon: 401, outsider: 404, member: ok, admin: ok, owner: ok, super: 404, other: 404, ...over }, over);
/** Team B content reached by team A's people: only B's members (`other`, the two-team callers) may. */
const teamB = (ok: number, over: Partial<Expect> = {}): Cells =>
  withTwoTeam(
    { anon: 401, outsider: 404, member: 404, admin: 404, owner: 404, viewer: 404, guest: 404, super: 404, other: ok, ...over },
    over,
    true,
  );
const everyone = (s: number): Cells =>
  withTwoTeam({ anon: s, outsider: s, member: s, admin: s, owner: s, viewer: s, guest: s, super: s, other: s }, {});
const superOnly = (ok: number): Cells =>
  withTwoTeam(
    { anon: 401, outsider: 403, member: 403, admin: 403, owner: 403, viewer: 403, guest: 403, super: ok, other: 403 },
    {},
  );
/**
 * The viewer and the guest where a row leaves them out (decision 0031, src/domain/permissions.ts): a read answers them
 * as it answers the plain member (the guest reads the project given to them as a member does); a write on team A is
 * refused to them (403: canContribute), whatever the member is told (a malformed body, 400 or 409, or a body id
 * the member cannot see, 404): their role is known before the body is read, and the refusal tells nothing of the
 * body's ids. The exceptions (comments, following a task, leaving the team, the guest's own task, what the guest
 * does not see, an item the rule has to read first) are written in the rows.
 */
function byRule(route: string, e: Cells): Expect {
  const rule = route.startsWith('GET ') ? e.member : 403;
  return { ...e, viewer: e.viewer ?? rule, guest: e.guest ?? rule };
}

const today = new Date().toISOString().slice(0, 10);
/** In every name of team A's second project (A2) and of its task and note: the guest's answers never hold it. */
const SECRET = 'Zq-secret';
const ONE_PIXEL_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

/** THE TABLE. */
const TABLE: Row[] = [
  // ---- system and auth ----
  { route: 'GET /api/health', variant: '', req: () => ({ url: '/api/health' }), expect: everyone(200) },
  {
    route: 'POST /api/auth/signup',
    variant: 'new email',
    req: () => ({
      url: '/api/auth/signup',
      body: { email: uniqueEmail('mx'), password: 'long enough pw', fullName: 'New Person' },
    }),
    expect: everyone(201),
  },
  {
    route: 'POST /api/auth/token',
    variant: 'password grant for the member',
    req: (w) => ({
      url: '/api/auth/token?grant_type=password',
      body: { email: w.p.member.email, password: w.p.member.password },
    }),
    expect: everyone(200),
  },
  {
    route: 'POST /api/auth/logout',
    variant: '',
    req: () => ({ url: '/api/auth/logout', body: {} }),
    expect: allow(204),
    freshSession: true,
  },
  { route: 'GET /api/auth/user', variant: '', req: () => ({ url: '/api/auth/user' }), expect: allow(200) },
  { route: 'GET /api/auth/providers', variant: '', req: () => ({ url: '/api/auth/providers' }), expect: everyone(200) },
  {
    route: 'POST /api/auth/forgot-password',
    variant: "the member's address",
    req: (w) => ({ url: '/api/auth/forgot-password', body: { email: w.p.member.email } }),
    expect: everyone(202),
  },
  {
    route: 'POST /api/auth/reset-password',
    variant: 'unknown link',
    req: () => ({
      url: '/api/auth/reset-password',
      body: { token: randomBytes(32).toString('base64url'), password: 'long enough pw' },
    }),
    expect: everyone(400),
  },
  {
    route: 'POST /api/auth/verify-email',
    variant: 'unknown link',
    req: () => ({ url: '/api/auth/verify-email', body: { token: randomBytes(32).toString('base64url') } }),
    expect: everyone(400),
  },
  {
    route: 'GET /api/auth/link-status',
    variant: 'unknown link (public, read-only)',
    req: () => ({ url: `/api/auth/link-status?purpose=reset_password&token=${randomBytes(32).toString('base64url')}` }),
    expect: everyone(200),
  },
  {
    route: 'POST /api/auth/resend-verification',
    variant: 'own unverified address',
    req: () => ({ url: '/api/auth/resend-verification', body: {} }),
    expect: allow(202),
  },
  {
    route: 'GET /api/auth/google/start',
    variant: 'not configured',
    req: () => ({ url: '/api/auth/google/start' }),
    expect: everyone(302),
  },
  {
    route: 'GET /api/auth/google/callback',
    variant: 'forged state',
    req: () => ({ url: '/api/auth/google/callback?code=abc&state=forged' }),
    expect: everyone(302),
  },
  {
    route: 'POST /api/auth/google/exchange',
    variant: 'unknown code',
    req: () => ({ url: '/api/auth/google/exchange', body: { code: randomBytes(24).toString('base64url') } }),
    expect: everyone(400),
  },
  {
    route: 'POST /api/auth/google/error',
    variant: 'hand-made description',
    req: () => ({ url: '/api/auth/google/error', body: { error_description: 'Call support on 555' } }),
    expect: everyone(400),
  },

  {
    route: 'POST /api/auth/token',
    variant: 'mfa grant with a forged token',
    req: () => ({ url: '/api/auth/token?grant_type=mfa', body: { mfa_token: 'forged', code: '123456' } }),
    expect: everyone(400),
  },

  // ---- settings → security (the caller's own sessions and two-factor sign-in) ----
  { route: 'GET /api/me/sessions', variant: '', req: () => ({ url: '/api/me/sessions' }), expect: allow(200) },
  {
    route: 'DELETE /api/me/sessions/{id}',
    variant: "the caller's own session",
    req: (_w, me) => ({ url: `/api/me/sessions/${me ? sessionIdOf(me.token) : randomUUID()}` }),
    expect: allow(204),
    freshSession: true,
  },
  {
    route: 'DELETE /api/me/sessions/{id}',
    variant: "another user's session",
    req: (w) => ({ url: `/api/me/sessions/${sessionIdOf(w.p.ownerB.token)}` }),
    expect: allow(404),
  },
  // Keeps the caller's session (the one the next rows use).
  {
    route: 'POST /api/me/sessions/revoke-others',
    variant: '',
    req: () => ({ url: '/api/me/sessions/revoke-others', body: {} }),
    expect: allow(200),
  },
  { route: 'GET /api/me/2fa', variant: '', req: () => ({ url: '/api/me/2fa' }), expect: allow(200) },
  {
    route: 'POST /api/me/2fa/setup',
    variant: 'with the password',
    req: (_w, me) => ({ url: '/api/me/2fa/setup', body: { currentPassword: me?.password ?? 'x' } }),
    expect: allow(200),
  },
  {
    route: 'POST /api/me/2fa/recovery-codes',
    variant: 'two-factor off',
    req: (_w, me) => ({ url: '/api/me/2fa/recovery-codes', body: { currentPassword: me?.password ?? 'x' } }),
    expect: allow(409),
  },
  {
    route: 'POST /api/me/2fa/enable',
    variant: 'not a code',
    req: () => ({ url: '/api/me/2fa/enable', body: { code: 'not-a-code' } }),
    expect: allow(400),
  },
  {
    route: 'POST /api/me/2fa/disable',
    variant: 'two-factor is off',
    req: () => ({ url: '/api/me/2fa/disable', body: { password: 'not the password' } }),
    expect: allow(409),
  },

  // ---- teams ----
  { route: 'GET /api/teams', variant: 'list', req: () => ({ url: '/api/teams' }), expect: allow(200) },
  {
    route: 'POST /api/teams',
    variant: '',
    req: () => ({ url: '/api/teams', body: { name: 'Matrix team' } }),
    expect: allow(201),
  },
  { route: 'GET /api/teams/{id}', variant: 'team A', req: (w) => ({ url: `/api/teams/${w.a.teamId}` }), expect: teamA(200) },
  {
    route: 'PATCH /api/teams/{id}',
    variant: 'team A',
    req: (w) => ({ url: `/api/teams/${w.a.teamId}`, body: { name: 'Renamed team' } }),
    expect: teamA(200, { member: 403, admin: 403 }),
  },
  {
    route: 'POST /api/teams/{id}/transfer-ownership',
    variant: 'to a member',
    req: (w) => ({ url: `/api/teams/${w.a.teamId}/transfer-ownership`, body: { memberId: w.a.targetMemberId } }),
    expect: teamA(200, { member: 403, admin: 403 }),
  },
  {
    route: 'POST /api/teams/{id}/transfer-ownership',
    variant: 'to oneself',
    req: (w) => ({ url: `/api/teams/${w.a.teamId}/transfer-ownership`, body: { memberId: w.a.ownerMemberId } }),
    expect: teamA(400, { member: 403, admin: 403 }),
  },
  {
    route: 'POST /api/teams/{id}/transfer-ownership',
    variant: "to team B's member",
    req: (w) => ({ url: `/api/teams/${w.a.teamId}/transfer-ownership`, body: { memberId: w.b.targetMemberId } }),
    expect: teamA(404, { member: 403, admin: 403 }),
    foreignBodyId: 'memberId',
  },
  {
    route: 'DELETE /api/teams/{id}',
    variant: 'team A',
    req: (w) => ({ url: `/api/teams/${w.a.teamId}` }),
    expect: teamA(204, { member: 403, admin: 403 }),
  },
  {
    route: 'POST /api/teams/{id}/leave',
    variant: 'team A',
    req: (w) => ({ url: `/api/teams/${w.a.teamId}/leave`, body: {} }),
    // Anyone but the owner leaves, the viewer and the guest too.
    expect: teamA(204, { owner: 403, viewer: 204, guest: 204 }),
  },
  {
    route: 'PATCH /api/teams/{id}/access',
    variant: 'team A, viewers may not comment',
    req: (w) => ({ url: `/api/teams/${w.a.teamId}/access`, body: { viewersMayComment: false } }),
    // The team's owner and admins set its access rules (canSetTeamAccess).
    expect: teamA(200, { member: 403 }),
  },
  {
    route: 'PATCH /api/teams/{id}/members/{memberId}',
    variant: 'a member of team A',
    req: (w) => ({ url: `/api/teams/${w.a.teamId}/members/${w.a.targetMemberId}`, body: { role: 'admin' } }),
    expect: teamA(200, { member: 403 }),
  },
  {
    route: 'PATCH /api/teams/{id}/members/{memberId}',
    variant: 'the owner of team A',
    req: (w) => ({ url: `/api/teams/${w.a.teamId}/members/${w.a.ownerMemberId}`, body: { role: 'member' } }),
    expect: teamA(403),
  },
  {
    route: 'PATCH /api/teams/{id}/members/{memberId}',
    variant: 'team A path, team B member id',
    req: (w) => ({ url: `/api/teams/${w.a.teamId}/members/${w.b.targetMemberId}`, body: { role: 'admin' } }),
    expect: teamA(404, { member: 403 }),
  },
  {
    route: 'DELETE /api/teams/{id}/members/{memberId}',
    variant: 'a member of team A',
    req: (w) => ({ url: `/api/teams/${w.a.teamId}/members/${w.a.targetMemberId}` }),
    expect: teamA(204, { member: 403 }),
  },
  {
    route: 'DELETE /api/teams/{id}/members/{memberId}',
    variant: 'team A path, team B member id',
    req: (w) => ({ url: `/api/teams/${w.a.teamId}/members/${w.b.targetMemberId}` }),
    expect: teamA(404, { member: 403 }),
  },
  {
    route: 'GET /api/teams/{id}/invitations',
    variant: 'team A',
    req: (w) => ({ url: `/api/teams/${w.a.teamId}/invitations` }),
    expect: teamA(200, { member: 403 }),
  },
  {
    route: 'POST /api/teams/{id}/invitations',
    variant: 'team A',
    req: (w) => ({ url: `/api/teams/${w.a.teamId}/invitations`, body: { email: uniqueEmail('inv'), role: 'member' } }),
    expect: teamA(201, { member: 403 }),
  },
  {
    route: 'POST /api/teams/{id}/invitations',
    variant: 'team B (foreign team id)',
    req: (w) => ({ url: `/api/teams/${w.b.teamId}/invitations`, body: { email: uniqueEmail('inv'), role: 'member' } }),
    expect: teamB(403),
  },
  { route: 'GET /api/invitations', variant: 'mine', req: () => ({ url: '/api/invitations' }), expect: allow(200) },
  {
    route: 'DELETE /api/invitations/{id}',
    variant: 'team A invitation',
    req: (w) => ({ url: `/api/invitations/${w.a.invitationId}` }),
    expect: teamA(204, { member: 403 }),
  },
  {
    route: 'DELETE /api/invitations/{id}',
    variant: 'team A invitation to the outsider',
    req: (w) => ({ url: `/api/invitations/${w.a.outsiderInvitationId}` }),
    expect: teamA(204, { member: 403, outsider: 403 }),
  },
  {
    route: 'POST /api/invitations/{id}/respond',
    variant: 'invitation to the outsider, accept',
    req: (w) => ({ url: `/api/invitations/${w.a.outsiderInvitationId}/respond`, body: { accept: true } }),
    expect: teamA(403, { outsider: 200 }),
  },
  {
    route: 'POST /api/invitations/{id}/respond',
    variant: 'invitation to someone else',
    req: (w) => ({ url: `/api/invitations/${w.a.invitationId}/respond`, body: { accept: false } }),
    expect: teamA(403),
  },

  // ---- projects ----
  { route: 'GET /api/projects', variant: 'all', req: () => ({ url: '/api/projects' }), expect: allow(200) },
  {
    route: 'GET /api/projects',
    variant: 'filtered on team B',
    req: (w) => ({ url: `/api/projects?teamId=${w.b.teamId}` }),
    expect: allow(200),
  },
  {
    route: 'POST /api/projects',
    variant: 'in team A',
    req: (w) => ({ url: '/api/projects', body: { name: 'Matrix project', teamId: w.a.teamId } }),
    expect: teamA(201),
  },
  {
    route: 'POST /api/projects',
    variant: 'teamId of team B (foreign)',
    req: (w) => ({ url: '/api/projects', body: { name: 'Matrix project', teamId: w.b.teamId } }),
    expect: teamB(201),
    foreignBodyId: 'teamId',
  },
  {
    route: 'GET /api/projects/{id}',
    variant: 'team A',
    req: (w) => ({ url: `/api/projects/${w.a.projectId}` }),
    expect: teamA(200),
  },
  {
    route: 'GET /api/projects/{id}',
    variant: "team A's second project (not given to the guest)",
    req: (w) => ({ url: `/api/projects/${w.a.project2Id}` }),
    expect: teamA(200, { guest: 404 }),
  },
  {
    route: 'PATCH /api/projects/{id}',
    variant: 'team A',
    req: (w) => ({ url: `/api/projects/${w.a.projectId}`, body: { name: 'Renamed project' } }),
    expect: teamA(200, { member: 403 }),
  },
  {
    route: 'PATCH /api/projects/{id}',
    variant: 'move to team B (foreign teamId)',
    req: (w) => ({ url: `/api/projects/${w.a.projectId}`, body: { teamId: w.b.teamId } }),
    // Editing right in A (owner/admin) and membership of B.
    expect: teamA(404, { member: 403, adminAB: 200 }),
    foreignBodyId: 'teamId',
  },
  {
    route: 'DELETE /api/projects/{id}',
    variant: 'team A',
    req: (w) => ({ url: `/api/projects/${w.a.projectId}` }),
    expect: teamA(204, { member: 403 }),
  },

  // ---- a project's guests (issue 41): the team's owner and admins give and take projects; those who see the
  // whole team read the list, a guest does not ----
  {
    route: 'GET /api/projects/{id}/guests',
    variant: 'team A',
    req: (w) => ({ url: `/api/projects/${w.a.projectId}/guests` }),
    expect: teamA(200, { guest: 403 }),
  },
  {
    route: 'GET /api/projects/{id}/guests',
    variant: "team A's second project",
    req: (w) => ({ url: `/api/projects/${w.a.project2Id}/guests` }),
    expect: teamA(200, { guest: 404 }),
  },
  {
    route: 'POST /api/projects/{id}/guests',
    variant: 'team A, a guest of the team',
    req: (w) => ({ url: `/api/projects/${w.a.projectId}/guests`, body: { userId: w.a.extraGuestId } }),
    expect: teamA(201, { member: 403 }),
  },
  {
    route: 'POST /api/projects/{id}/guests',
    variant: 'team A, a plain member (not a guest)',
    req: (w) => ({ url: `/api/projects/${w.a.projectId}/guests`, body: { userId: w.a.extraUserId } }),
    expect: teamA(400, { member: 403 }),
  },
  {
    route: 'POST /api/projects/{id}/guests',
    variant: "team A, team B's member (foreign)",
    req: (w) => ({ url: `/api/projects/${w.a.projectId}/guests`, body: { userId: w.p.other.id } }),
    // Not a guest of the project's team: the two-team admin, who sees `other` in team B, is told so too.
    expect: teamA(400, { member: 403 }),
    foreignBodyId: 'userId',
  },
  {
    route: 'DELETE /api/projects/{id}/guests/{userId}',
    variant: "the project's guest",
    req: (w) => ({ url: `/api/projects/${w.a.projectId}/guests/${w.p.guest.id}` }),
    expect: teamA(204, { member: 403 }),
  },
  {
    route: 'DELETE /api/projects/{id}/guests/{userId}',
    variant: 'a guest of the team not given the project',
    req: (w) => ({ url: `/api/projects/${w.a.projectId}/guests/${w.a.extraGuestId}` }),
    expect: teamA(404, { member: 403 }),
  },

  // ---- a project's workflow (issue 36): members read it, those who may edit the project change it ----
  {
    route: 'GET /api/projects/{id}/statuses',
    variant: 'team A',
    req: (w) => ({ url: `/api/projects/${w.a.projectId}/statuses` }),
    expect: teamA(200),
  },
  {
    route: 'GET /api/projects/{id}/statuses',
    variant: "team A's second project",
    req: (w) => ({ url: `/api/projects/${w.a.project2Id}/statuses` }),
    expect: teamA(200, { guest: 404 }),
  },
  {
    route: 'POST /api/projects/{id}/statuses',
    variant: 'team A',
    req: (w) => ({ url: `/api/projects/${w.a.projectId}/statuses`, body: { name: 'QA', category: 'started', color: '#7c3aed' } }),
    expect: teamA(201, { member: 403 }),
  },
  {
    route: 'PUT /api/projects/{id}/statuses/order',
    variant: 'team A, reversed',
    req: (w) => ({ url: `/api/projects/${w.a.projectId}/statuses/order`, body: { ids: [...w.a.statusIds].reverse() } }),
    expect: teamA(200, { member: 403 }),
  },
  {
    route: 'PUT /api/projects/{id}/statuses/order',
    variant: "one of team B's statuses in team A's order",
    req: (w) => ({
      url: `/api/projects/${w.a.projectId}/statuses/order`,
      body: { ids: [...w.a.statusIds.slice(1), w.b.statusIds[0]] },
    }),
    // Never an order across projects: those who may edit A are told the order does not match.
    expect: teamA(409, { member: 403 }),
    foreignBodyId: 'ids',
  },
  {
    route: 'PATCH /api/statuses/{id}',
    variant: 'team A',
    req: (w) => ({ url: `/api/statuses/${w.a.reviewStatusId}`, body: { name: 'Checked', wipLimit: 3 } }),
    expect: teamA(200, { member: 403 }),
  },
  {
    route: 'PATCH /api/statuses/{id}',
    variant: "team B's status",
    req: (w) => ({ url: `/api/statuses/${w.b.reviewStatusId}`, body: { name: 'Checked' } }),
    // Team B's plain members (the other, the two-team callers) may see it but not edit it.
    expect: teamB(403),
  },
  {
    route: 'DELETE /api/statuses/{id}',
    variant: 'team A, no tasks, no body',
    req: (w) => ({ url: `/api/statuses/${w.a.reviewStatusId}` }),
    expect: teamA(204, { member: 403 }),
  },
  {
    route: 'DELETE /api/statuses/{id}',
    variant: 'team A, moveTo In Progress',
    req: (w) => ({ url: `/api/statuses/${w.a.reviewStatusId}`, body: { moveTo: w.a.inProgressStatusId } }),
    expect: teamA(204, { member: 403 }),
  },
  {
    route: 'DELETE /api/statuses/{id}',
    variant: "team A, moveTo team B's status",
    req: (w) => ({ url: `/api/statuses/${w.a.reviewStatusId}`, body: { moveTo: w.b.inProgressStatusId } }),
    // Never a move into another project: 400 for those who may edit A.
    expect: teamA(400, { member: 403 }),
    foreignBodyId: 'moveTo',
  },

  // ---- a project's public board link (issue 40): its owners and admins manage it; the board is public by token ----
  {
    route: 'GET /api/projects/{id}/share',
    variant: 'team A',
    req: (w) => ({ url: `/api/projects/${w.a.projectId}/share` }),
    expect: teamA(200, { member: 403 }),
  },
  {
    route: 'PUT /api/projects/{id}/share',
    variant: 'team A, turned on',
    req: (w) => ({ url: `/api/projects/${w.a.projectId}/share`, body: { enabled: true, showPeople: true } }),
    expect: teamA(200, { member: 403 }),
  },
  {
    route: 'POST /api/projects/{id}/share/reset',
    variant: 'team A, the link off',
    req: (w) => ({ url: `/api/projects/${w.a.projectId}/share/reset`, body: {} }),
    expect: teamA(409, { member: 403 }),
  },
  {
    route: 'GET /api/share/{token}',
    variant: 'unknown token (public)',
    req: () => ({ url: `/api/share/${randomBytes(24).toString('base64url')}` }),
    expect: everyone(404),
  },
  {
    route: 'GET /api/share/{token}/events',
    variant: 'unknown token (public stream)',
    req: () => ({ url: `/api/share/${randomBytes(24).toString('base64url')}/events`, stream: true }),
    expect: everyone(404),
  },

  // ---- a project's intake address (issue 40, tasks by email): its owners and admins see and manage it ----
  {
    route: 'GET /api/projects/{id}/intake',
    variant: 'team A',
    req: (w) => ({ url: `/api/projects/${w.a.projectId}/intake` }),
    expect: teamA(200, { member: 403 }),
  },
  {
    route: 'POST /api/projects/{id}/intake',
    variant: 'team A, turned on',
    req: (w) => ({ url: `/api/projects/${w.a.projectId}/intake`, body: { enabled: true } }),
    expect: teamA(200, { member: 403 }),
  },
  {
    route: 'POST /api/projects/{id}/intake/reset',
    variant: 'team A, the address off',
    req: (w) => ({ url: `/api/projects/${w.a.projectId}/intake/reset`, body: {} }),
    expect: teamA(409, { member: 403 }),
  },

  // ---- a project's request forms (issue 40): owners and admins manage them, members list them; public by token ----
  {
    route: 'GET /api/projects/{id}/forms',
    variant: 'team A',
    req: (w) => ({ url: `/api/projects/${w.a.projectId}/forms` }),
    expect: teamA(200),
  },
  {
    route: 'POST /api/projects/{id}/forms',
    variant: 'team A',
    req: (w) => ({
      url: `/api/projects/${w.a.projectId}/forms`,
      body: { name: 'Matrix form', fields: [{ key: 'title', label: 'Title' }], assigneeId: w.p.member.id },
    }),
    expect: teamA(201, { member: 403 }),
  },
  {
    route: 'POST /api/projects/{id}/forms',
    variant: "team A, team B's member as assignee",
    req: (w) => ({
      url: `/api/projects/${w.a.projectId}/forms`,
      body: { name: 'Matrix form', fields: [{ key: 'title', label: 'Title' }], assigneeId: w.p.other.id },
    }),
    expect: teamA(400, { member: 403 }),
    foreignBodyId: 'assigneeId',
  },
  {
    route: 'PATCH /api/forms/{id}',
    variant: 'team A',
    req: (w) => ({ url: `/api/forms/${w.a.formId}`, body: { name: 'Renamed form', open: false } }),
    expect: teamA(200, { member: 403 }),
  },
  {
    route: 'PATCH /api/forms/{id}',
    variant: "team A, team B's member as assignee",
    req: (w) => ({ url: `/api/forms/${w.a.formId}`, body: { assigneeId: w.p.other.id } }),
    expect: teamA(400, { member: 403 }),
    foreignBodyId: 'assigneeId',
  },
  {
    route: 'PATCH /api/forms/{id}',
    variant: "team B's form",
    req: (w) => ({ url: `/api/forms/${w.b.formId}`, body: { name: 'Taken over' } }),
    expect: teamB(403),
  },
  {
    route: 'POST /api/forms/{id}/reset',
    variant: 'team A',
    req: (w) => ({ url: `/api/forms/${w.a.formId}/reset`, body: {} }),
    expect: teamA(200, { member: 403 }),
  },
  {
    route: 'DELETE /api/forms/{id}',
    variant: 'team A',
    req: (w) => ({ url: `/api/forms/${w.a.formId}` }),
    expect: teamA(204, { member: 403 }),
  },
  {
    route: 'GET /api/public-forms/{token}',
    variant: "team A's form (public)",
    req: (w) => ({ url: `/api/public-forms/${w.a.formToken}` }),
    expect: everyone(200),
  },
  {
    route: 'GET /api/public-forms/{token}',
    variant: 'unknown token (public)',
    req: () => ({ url: `/api/public-forms/${randomBytes(24).toString('base64url')}` }),
    expect: everyone(404),
  },
  {
    route: 'POST /api/public-forms/{token}',
    variant: "team A's form (public)",
    req: (w) => ({ url: `/api/public-forms/${w.a.formToken}`, body: { values: { title: 'Matrix request' }, website: '' } }),
    expect: everyone(201),
  },
  {
    route: 'GET /api/requests/{token}',
    variant: "a request of team A's (public)",
    req: (w) => ({ url: `/api/requests/${w.a.requestToken}` }),
    expect: everyone(200),
  },
  {
    route: 'GET /api/requests/{token}',
    variant: 'unknown token (public)',
    req: () => ({ url: `/api/requests/${randomBytes(24).toString('base64url')}` }),
    expect: everyone(404),
  },

  // ---- a team's custom fields (issue 38): members read them, owners and admins define them ----
  { route: 'GET /api/fields', variant: "the caller's teams", req: () => ({ url: '/api/fields' }), expect: allow(200) },
  {
    route: 'GET /api/teams/{id}/fields',
    variant: 'team A',
    req: (w) => ({ url: `/api/teams/${w.a.teamId}/fields` }),
    expect: teamA(200),
  },
  {
    route: 'POST /api/teams/{id}/fields',
    variant: 'team A',
    req: (w) => ({
      url: `/api/teams/${w.a.teamId}/fields`,
      body: { name: 'Points', type: 'number', projectIds: [w.a.projectId] },
    }),
    expect: teamA(201, { member: 403 }),
  },
  {
    route: 'POST /api/teams/{id}/fields',
    variant: "team A, for team B's project",
    req: (w) => ({
      url: `/api/teams/${w.a.teamId}/fields`,
      body: { name: 'Points', type: 'number', projectIds: [w.b.projectId] },
    }),
    // Never a field of one team on another's project: 400 for those who may define A's fields.
    expect: teamA(400, { member: 403 }),
    foreignBodyId: 'projectIds',
  },
  {
    route: 'PATCH /api/fields/{id}',
    variant: 'team A',
    req: (w) => ({ url: `/api/fields/${w.a.fieldId}`, body: { name: 'Risk', showOnCard: true } }),
    expect: teamA(200, { member: 403 }),
  },
  {
    route: 'PATCH /api/fields/{id}',
    variant: "team B's field",
    req: (w) => ({ url: `/api/fields/${w.b.fieldId}`, body: { name: 'Risk' } }),
    // Team B's plain members (the other, the two-team callers) may read it but not change it.
    expect: teamB(403),
  },
  {
    route: 'PATCH /api/fields/{id}',
    variant: "team A, for team B's project",
    req: (w) => ({ url: `/api/fields/${w.a.fieldId}`, body: { projectIds: [w.b.projectId] } }),
    expect: teamA(400, { member: 403 }),
    foreignBodyId: 'projectIds',
  },
  {
    route: 'DELETE /api/fields/{id}',
    variant: 'team A',
    req: (w) => ({ url: `/api/fields/${w.a.fieldId}` }),
    expect: teamA(204, { member: 403 }),
  },
  {
    route: 'GET /api/fields/{id}/usage',
    variant: 'team A',
    req: (w) => ({ url: `/api/fields/${w.a.fieldId}/usage` }),
    expect: teamA(200),
  },

  // ---- tasks ----
  { route: 'GET /api/tasks', variant: 'all', req: () => ({ url: '/api/tasks' }), expect: allow(200) },
  {
    route: 'GET /api/tasks',
    variant: 'filtered on a team B project',
    req: (w) => ({ url: `/api/tasks?projectId=${w.b.projectId}` }),
    expect: teamB(200),
  },
  {
    route: 'GET /api/tasks',
    variant: 'filtered on team A (calendar, My work)',
    req: (w) => ({ url: `/api/tasks?teamId=${w.a.teamId}&dueFrom=${today}&dueTo=${today}&open=true` }),
    expect: teamA(200),
  },
  {
    route: 'GET /api/tasks',
    variant: 'filtered on team B',
    req: (w) => ({ url: `/api/tasks?teamId=${w.b.teamId}` }),
    expect: teamB(200),
  },
  { route: 'GET /api/tasks/board', variant: 'all', req: () => ({ url: '/api/tasks/board' }), expect: allow(200) },
  {
    route: 'GET /api/tasks/board',
    variant: 'filtered on a team A project',
    req: (w) => ({ url: `/api/tasks/board?projectId=${w.a.projectId}` }),
    expect: teamA(200),
  },
  {
    route: 'GET /api/tasks',
    variant: "filtered on team A's second project",
    req: (w) => ({ url: `/api/tasks?projectId=${w.a.project2Id}` }),
    expect: teamA(200, { guest: 404 }),
  },
  {
    route: 'GET /api/tasks/board',
    variant: "filtered on team A's second project",
    req: (w) => ({ url: `/api/tasks/board?projectId=${w.a.project2Id}` }),
    expect: teamA(200, { guest: 404 }),
  },
  {
    route: 'POST /api/tasks',
    variant: 'in a team A project',
    req: (w) => ({ url: '/api/tasks', body: { title: 'Matrix task', projectId: w.a.projectId } }),
    expect: teamA(201),
  },
  {
    route: 'POST /api/tasks',
    variant: "in team A's second project",
    req: (w) => ({ url: '/api/tasks', body: { title: 'Matrix task', projectId: w.a.project2Id } }),
    // Not the guest's project: not found, as a stranger's.
    expect: teamA(201, { guest: 404 }),
  },
  {
    route: 'POST /api/tasks',
    variant: 'projectId of team B (foreign)',
    req: (w) => ({ url: '/api/tasks', body: { title: 'Matrix task', projectId: w.b.projectId } }),
    expect: teamB(201),
    foreignBodyId: 'projectId',
  },
  {
    route: 'POST /api/tasks',
    variant: 'assigneeId of a team B member (foreign)',
    req: (w) => ({ url: '/api/tasks', body: { title: 'Matrix task', projectId: w.a.projectId, assigneeId: w.p.other.id } }),
    expect: teamA(400),
    foreignBodyId: 'assigneeId',
  },
  {
    route: 'POST /api/tasks',
    variant: 'team B project, assigneeId of a team A member',
    req: (w) => ({ url: '/api/tasks', body: { title: 'Matrix task', projectId: w.b.projectId, assigneeId: w.p.member.id } }),
    expect: teamB(400),
    foreignBodyId: 'assigneeId',
  },
  {
    route: 'POST /api/tasks',
    variant: 'parentId of team B (foreign)',
    req: (w) => ({ url: '/api/tasks', body: { title: 'Matrix task', projectId: w.a.projectId, parentId: w.b.taskId } }),
    // A parent the caller cannot see is 404 before any rule; one they see in another project is the 400 of the rule.
    expect: teamA(404, { memberAB: 400, adminAB: 400 }),
    foreignBodyId: 'parentId',
  },
  { route: 'GET /api/tasks/{id}', variant: 'team A', req: (w) => ({ url: `/api/tasks/${w.a.taskId}` }), expect: teamA(200) },
  {
    route: 'GET /api/tasks/{id}',
    variant: "the guest's task (blocked by A2's: a hidden ref for the guest)",
    req: (w) => ({ url: `/api/tasks/${w.a.guestTaskId}` }),
    expect: teamA(200),
  },
  {
    route: 'GET /api/tasks/{id}',
    variant: "team A's second project's task",
    req: (w) => ({ url: `/api/tasks/${w.a.project2TaskId}` }),
    expect: teamA(200, { guest: 404 }),
  },
  {
    route: 'PATCH /api/tasks/{id}',
    variant: 'team A',
    req: (w) => ({ url: `/api/tasks/${w.a.taskId}`, body: { title: 'Renamed task' } }),
    expect: teamA(200),
  },
  {
    route: 'PATCH /api/tasks/{id}',
    variant: "the guest's task",
    req: (w) => ({ url: `/api/tasks/${w.a.guestTaskId}`, body: { title: 'Renamed task', priority: 'high' } }),
    expect: teamA(200, { guest: 200 }),
  },
  {
    route: 'PATCH /api/tasks/{id}',
    variant: "the guest's task, handed to the member",
    req: (w) => ({ url: `/api/tasks/${w.a.guestTaskId}`, body: { assigneeId: w.p.member.id } }),
    // A guest changes the tasks assigned to them, never who they are assigned to.
    expect: teamA(200, { guest: 403 }),
  },
  {
    route: 'PATCH /api/tasks/{id}',
    variant: "team A's second project's task",
    req: (w) => ({ url: `/api/tasks/${w.a.project2TaskId}`, body: { title: 'Renamed task' } }),
    expect: teamA(200, { guest: 404 }),
  },
  {
    route: 'PATCH /api/tasks/{id}',
    variant: 'parentId of team B (foreign)',
    req: (w) => ({ url: `/api/tasks/${w.a.taskId}`, body: { parentId: w.b.taskId } }),
    expect: teamA(404, { memberAB: 400, adminAB: 400 }),
    foreignBodyId: 'parentId',
  },
  {
    route: 'PATCH /api/tasks/{id}',
    variant: "the owner's task, projectId of team B (foreign)",
    req: (w) => ({ url: `/api/tasks/${w.a.taskId}`, body: { projectId: w.b.projectId } }),
    // Out of its team only with the right to delete it there (finding 1): not for a plain member of both.
    expect: teamA(404, { memberAB: 403, adminAB: 200 }),
    foreignBodyId: 'projectId',
  },
  {
    route: 'PATCH /api/tasks/{id}',
    variant: "the two-team member's own task, projectId of team B (foreign)",
    req: (w) => ({ url: `/api/tasks/${w.a.memberABTaskId}`, body: { projectId: w.b.projectId } }),
    expect: teamA(404, { memberAB: 200, adminAB: 200 }),
    foreignBodyId: 'projectId',
  },
  {
    route: 'PATCH /api/tasks/{id}',
    variant: 'assigneeId of a team B member (foreign)',
    req: (w) => ({ url: `/api/tasks/${w.a.taskId}`, body: { assigneeId: w.p.other.id } }),
    expect: teamA(400),
    foreignBodyId: 'assigneeId',
  },
  {
    route: 'PATCH /api/tasks/{id}/status',
    variant: 'team A',
    req: (w) => ({ url: `/api/tasks/${w.a.taskId}/status`, body: { status: 'completed' } }),
    expect: teamA(200),
  },
  {
    route: 'PATCH /api/tasks/{id}/status',
    variant: "the guest's task",
    req: (w) => ({ url: `/api/tasks/${w.a.guestTaskId}/status`, body: { status: 'completed' } }),
    expect: teamA(200, { guest: 200 }),
  },
  {
    route: 'DELETE /api/tasks/{id}',
    variant: "the owner's task",
    req: (w) => ({ url: `/api/tasks/${w.a.taskId}` }),
    expect: teamA(204, { member: 403 }),
  },
  {
    route: 'DELETE /api/tasks/{id}',
    variant: "the member's own task",
    req: (w) => ({ url: `/api/tasks/${w.a.memberTaskId}` }),
    // The other plain member is not its creator.
    expect: teamA(204, { memberAB: 403 }),
  },

  // ---- the task page: comments, watch, attachments, checklist, activity (issue 22) ----
  ...(
    [
      ['GET /api/tasks/{id}/comments', 'comments'],
      ['GET /api/tasks/{id}/mentionable', 'mentionable'],
      ['GET /api/tasks/{id}/watch', 'watch'],
      ['GET /api/tasks/{id}/attachments', 'attachments'],
      ['GET /api/tasks/{id}/checklist', 'checklist'],
      ['GET /api/tasks/{id}/activity', 'activity'],
      ['GET /api/tasks/{id}/subtasks', 'subtasks'],
      ['GET /api/tasks/{id}/dependencies', 'dependencies'],
      ['GET /api/tasks/{id}/time-entries', 'time-entries'],
    ] as const
  ).flatMap(([route, part]): Row[] => [
    { route, variant: 'team A', req: (w) => ({ url: `/api/tasks/${w.a.taskId}/${part}` }), expect: teamA(200) },
    { route, variant: 'team B', req: (w) => ({ url: `/api/tasks/${w.b.taskId}/${part}` }), expect: teamB(200) },
  ]),
  {
    route: 'GET /api/tasks/{id}/dependencies',
    variant: "the guest's task, blocked by A2's (a hidden ref for the guest)",
    req: (w) => ({ url: `/api/tasks/${w.a.guestTaskId}/dependencies` }),
    expect: teamA(200),
  },
  {
    route: 'GET /api/tasks/{id}/comments',
    variant: "team A's second project's task",
    req: (w) => ({ url: `/api/tasks/${w.a.project2TaskId}/comments` }),
    expect: teamA(200, { guest: 404 }),
  },
  {
    route: 'POST /api/tasks/{id}/comments',
    variant: 'team A',
    req: (w) => ({ url: `/api/tasks/${w.a.taskId}/comments`, body: { body: 'A comment' } }),
    // The viewer comments while the team lets viewers comment (the default); the guest only on their own task.
    expect: teamA(201, { viewer: 201 }),
  },
  {
    route: 'POST /api/tasks/{id}/comments',
    variant: "the guest's task",
    req: (w) => ({ url: `/api/tasks/${w.a.guestTaskId}/comments`, body: { body: 'A comment' } }),
    expect: teamA(201, { viewer: 201, guest: 201 }),
  },
  {
    route: 'POST /api/tasks/{id}/comments',
    variant: "mentioning team B's member",
    // The two-team callers may mention `other` on team B's task only: on team A's task it is refused.
    req: (w) => ({ url: `/api/tasks/${w.a.taskId}/comments`, body: { body: `Hi <@${w.p.other.id}>` } }),
    expect: teamA(400, { viewer: 400 }),
  },
  {
    route: 'PATCH /api/tasks/{id}/comments/{itemId}',
    variant: "the member's comment",
    req: (w) => ({ url: `/api/tasks/${w.a.taskId}/comments/${w.a.commentId}`, body: { body: 'Edited' } }),
    // Only its author edits a comment: managers may delete it, never rewrite it.
    expect: teamA(200, { admin: 403, owner: 403, memberAB: 403, adminAB: 403 }),
  },
  {
    route: 'DELETE /api/tasks/{id}/comments/{itemId}',
    variant: "the member's comment",
    req: (w) => ({ url: `/api/tasks/${w.a.taskId}/comments/${w.a.commentId}` }),
    expect: teamA(204, { memberAB: 403 }),
  },
  {
    route: 'DELETE /api/tasks/{id}/comments/{itemId}',
    variant: "team B's comment through team A's task",
    req: (w) => ({ url: `/api/tasks/${w.a.taskId}/comments/${w.b.commentId}` }),
    // Who may delete a comment depends on its author: a comment that is not the task's is not found, for everyone.
    expect: teamA(404, { viewer: 404, guest: 404 }),
  },
  {
    route: 'PUT /api/tasks/{id}/watch',
    variant: 'team A',
    req: (w) => ({ url: `/api/tasks/${w.a.taskId}/watch`, body: { watching: false } }),
    // Following a task is the caller's own choice: whoever sees the task.
    expect: teamA(200, { viewer: 200, guest: 200 }),
  },
  {
    route: 'POST /api/tasks/{id}/attachments',
    variant: 'a text file',
    req: (w) => ({ url: `/api/tasks/${w.a.taskId}/attachments`, multipart: { fileName: 'notes.txt', content: 'hello' } }),
    expect: teamA(201),
  },
  {
    route: 'POST /api/tasks/{id}/attachments',
    variant: "a text file on the guest's task",
    req: (w) => ({ url: `/api/tasks/${w.a.guestTaskId}/attachments`, multipart: { fileName: 'notes.txt', content: 'hello' } }),
    expect: teamA(201, { guest: 201 }),
  },
  {
    route: 'DELETE /api/tasks/{id}/attachments/{itemId}',
    variant: "the member's file",
    req: (w) => ({ url: `/api/tasks/${w.a.taskId}/attachments/${w.a.attachmentId}` }),
    expect: teamA(204, { memberAB: 403 }),
  },
  {
    route: 'GET /api/files/{id}',
    variant: 'no signature',
    req: (w) => ({ url: `/api/files/${w.a.attachmentId}` }),
    expect: everyone(404),
  },
  {
    route: 'POST /api/tasks/{id}/checklist',
    variant: 'team A',
    req: (w) => ({ url: `/api/tasks/${w.a.taskId}/checklist`, body: { title: 'Step' } }),
    expect: teamA(201),
  },
  {
    route: 'POST /api/tasks/{id}/checklist',
    variant: "the guest's task",
    req: (w) => ({ url: `/api/tasks/${w.a.guestTaskId}/checklist`, body: { title: 'Step' } }),
    expect: teamA(201, { guest: 201 }),
  },
  {
    route: 'PATCH /api/tasks/{id}/checklist/{itemId}',
    variant: 'team A',
    req: (w) => ({ url: `/api/tasks/${w.a.taskId}/checklist/${w.a.checklistItemId}`, body: { done: true } }),
    expect: teamA(200),
  },
  {
    route: 'PATCH /api/tasks/{id}/checklist/{itemId}',
    variant: "team B's item through team A's task",
    req: (w) => ({ url: `/api/tasks/${w.a.taskId}/checklist/${w.b.checklistItemId}`, body: { done: true } }),
    expect: teamA(404),
  },
  {
    route: 'DELETE /api/tasks/{id}/checklist/{itemId}',
    variant: 'team A',
    req: (w) => ({ url: `/api/tasks/${w.a.taskId}/checklist/${w.a.checklistItemId}` }),
    expect: teamA(204),
  },
  {
    route: 'PUT /api/tasks/{id}/checklist/order',
    variant: 'team A, its one item',
    req: (w) => ({ url: `/api/tasks/${w.a.taskId}/checklist/order`, body: { ids: [w.a.checklistItemId] } }),
    expect: teamA(200),
  },
  {
    route: 'PUT /api/tasks/{id}/checklist/order',
    variant: "team B's item in team A's order",
    req: (w) => ({ url: `/api/tasks/${w.a.taskId}/checklist/order`, body: { ids: [w.b.checklistItemId] } }),
    expect: teamA(409),
  },
  {
    route: 'PUT /api/tasks/{id}/subtasks/order',
    variant: 'team A, its one sub-task',
    req: (w) => ({ url: `/api/tasks/${w.a.parentTaskId}/subtasks/order`, body: { ids: [w.a.subtaskId] } }),
    expect: teamA(200),
  },
  {
    route: 'PUT /api/tasks/{id}/subtasks/order',
    variant: "team B's sub-task in team A's order",
    req: (w) => ({ url: `/api/tasks/${w.a.parentTaskId}/subtasks/order`, body: { ids: [w.b.subtaskId] } }),
    expect: teamA(409),
  },
  {
    route: 'PUT /api/tasks/{id}/subtasks/order',
    variant: "team B's task",
    req: (w) => ({ url: `/api/tasks/${w.b.parentTaskId}/subtasks/order`, body: { ids: [w.b.subtaskId] } }),
    expect: teamB(200),
  },

  // ---- dependencies (issue 37): rights as editing the task; a blocker the caller cannot see (or of another team) is 404 ----
  {
    route: 'POST /api/tasks/{id}/dependencies',
    variant: 'team A, blocked by a team A task',
    req: (w) => ({ url: `/api/tasks/${w.a.taskId}/dependencies`, body: { blockedBy: w.a.memberTaskId } }),
    expect: teamA(201),
  },
  {
    route: 'POST /api/tasks/{id}/dependencies',
    variant: 'blockedBy of team B (foreign)',
    req: (w) => ({ url: `/api/tasks/${w.a.taskId}/dependencies`, body: { blockedBy: w.b.taskId } }),
    // Same team only: a blocker the two-team callers see in team B is 404 too, as a stranger's task.
    expect: teamA(404),
    foreignBodyId: 'blockedBy',
  },
  {
    route: 'POST /api/tasks/{id}/dependencies',
    variant: "team B's task, closing a cycle",
    // Team B is one copy for every cell: a cycle (its member's task is blocked by its parent task) answers the same each time.
    req: (w) => ({ url: `/api/tasks/${w.b.parentTaskId}/dependencies`, body: { blockedBy: w.b.memberTaskId } }),
    expect: teamB(400),
  },
  {
    route: 'DELETE /api/tasks/{id}/dependencies/{otherId}',
    variant: 'team A, its one dependency',
    req: (w) => ({ url: `/api/tasks/${w.a.memberTaskId}/dependencies/${w.a.parentTaskId}` }),
    expect: teamA(204),
  },
  {
    route: 'DELETE /api/tasks/{id}/dependencies/{otherId}',
    variant: "team B's dependency through team A's task",
    req: (w) => ({ url: `/api/tasks/${w.a.memberTaskId}/dependencies/${w.b.parentTaskId}` }),
    expect: teamA(404),
  },

  // ---- time tracking (issue 39): rights as the task's; an entry is changed by its author or the team's owner and admins ----
  {
    route: 'POST /api/tasks/{id}/time-entries',
    variant: 'team A',
    req: (w) => ({ url: `/api/tasks/${w.a.taskId}/time-entries`, body: { date: today, minutes: 90, note: 'Matrix' } }),
    expect: teamA(201),
  },
  {
    route: 'POST /api/tasks/{id}/time-entries',
    variant: "the guest's task",
    req: (w) => ({ url: `/api/tasks/${w.a.guestTaskId}/time-entries`, body: { date: today, minutes: 90 } }),
    expect: teamA(201, { guest: 201 }),
  },
  {
    route: 'POST /api/tasks/{id}/time-entries',
    variant: 'team B',
    req: (w) => ({ url: `/api/tasks/${w.b.taskId}/time-entries`, body: { date: today, minutes: 90 } }),
    expect: teamB(201),
  },
  {
    route: 'GET /api/time-entries',
    variant: 'my own',
    req: () => ({ url: `/api/time-entries?from=${today}&to=${today}` }),
    expect: allow(200),
  },
  {
    route: 'GET /api/time-entries',
    variant: "team A's (every member's for its owner and admins, one's own for a member)",
    req: (w) => ({ url: `/api/time-entries?from=${today}&to=${today}&teamId=${w.a.teamId}` }),
    expect: teamA(200),
  },
  {
    route: 'GET /api/time-entries',
    variant: "the plain member's in team A",
    req: (w) => ({ url: `/api/time-entries?from=${today}&to=${today}&teamId=${w.a.teamId}&userId=${w.p.member.id}` }),
    // Their own for the member; another member's for the owner and admins only.
    expect: teamA(200, { memberAB: 403, viewer: 403, guest: 403 }),
  },
  {
    route: 'GET /api/time-entries',
    variant: "the plain member's in team B",
    req: (w) => ({ url: `/api/time-entries?from=${today}&to=${today}&teamId=${w.b.teamId}&userId=${w.p.member.id}` }),
    // Team B's own member reads nobody else's; the two-team callers are plain members there.
    expect: teamB(403),
  },
  {
    route: 'PATCH /api/time-entries/{id}',
    variant: "the member's entry",
    req: (w) => ({ url: `/api/time-entries/${w.a.timeEntryId}`, body: { minutes: 45 } }),
    expect: teamA(200, { memberAB: 403 }),
  },
  {
    route: 'DELETE /api/time-entries/{id}',
    variant: "the member's entry",
    req: (w) => ({ url: `/api/time-entries/${w.a.timeEntryId}` }),
    expect: teamA(204, { memberAB: 403 }),
  },
  {
    route: 'PATCH /api/time-entries/{id}',
    variant: "team B's entry",
    // Team B is one copy for every cell: an edit, not a delete. Its plain member's: the two-team callers are plain
    // members there, not its author.
    req: (w) => ({ url: `/api/time-entries/${w.b.timeEntryId}`, body: { minutes: 45 } }),
    expect: teamB(200, { memberAB: 403, adminAB: 403 }),
  },
  { route: 'GET /api/me/timer', variant: '', req: () => ({ url: '/api/me/timer' }), expect: allow(200) },
  {
    route: 'POST /api/me/timer',
    variant: 'on a team A task',
    req: (w) => ({ url: '/api/me/timer', body: { taskId: w.a.taskId } }),
    // Time on a task is a change of the task: not for the viewer, the guest only on their own task.
    expect: teamA(200),
  },
  {
    route: 'POST /api/me/timer',
    variant: "on the guest's task",
    req: (w) => ({ url: '/api/me/timer', body: { taskId: w.a.guestTaskId } }),
    expect: teamA(200, { guest: 200 }),
  },
  {
    route: 'POST /api/me/timer',
    variant: 'taskId of team B (foreign)',
    req: (w) => ({ url: '/api/me/timer', body: { taskId: w.b.taskId } }),
    expect: teamB(200),
    foreignBodyId: 'taskId',
  },
  { route: 'DELETE /api/me/timer', variant: 'none running', req: () => ({ url: '/api/me/timer' }), expect: allow(200) },

  // ---- dashboard, notifications, realtime ----
  { route: 'GET /api/dashboard', variant: '', req: () => ({ url: `/api/dashboard?today=${today}` }), expect: allow(200) },
  { route: 'GET /api/notifications', variant: '', req: () => ({ url: '/api/notifications' }), expect: allow(200) },
  {
    route: 'PATCH /api/notifications/{id}/read',
    variant: "the member's notification",
    req: (w) => ({ url: `/api/notifications/${w.a.notificationId}/read`, body: {} }),
    expect: {
      anon: 401,
      outsider: 404,
      member: 204,
      admin: 404,
      owner: 404,
      viewer: 404,
      guest: 404,
      super: 404,
      other: 404,
      memberAB: 404,
      adminAB: 404,
    },
  },
  {
    route: 'POST /api/notifications/read-all',
    variant: '',
    req: () => ({ url: '/api/notifications/read-all', body: {} }),
    expect: allow(204),
  },
  { route: 'GET /api/events', variant: 'stream', req: () => ({ url: '/api/events', stream: true }), expect: allow(200) },

  // ---- settings (the caller's own account: nothing here names another) ----
  {
    route: 'POST /api/me/avatar',
    variant: 'a PNG',
    req: () => ({ url: '/api/me/avatar', multipart: { fileName: 'me.png', content: ONE_PIXEL_PNG } }),
    expect: allow(200),
  },
  { route: 'DELETE /api/me/avatar', variant: '', req: () => ({ url: '/api/me/avatar' }), expect: allow(200) },
  {
    route: 'GET /api/avatars/{userId}/{file}',
    variant: 'unknown',
    req: (w) => ({ url: `/api/avatars/${w.p.member.id}/${randomUUID()}` }),
    expect: everyone(404),
  },
  { route: 'GET /api/me/profile', variant: '', req: () => ({ url: '/api/me/profile' }), expect: allow(200) },
  {
    route: 'PATCH /api/me/profile',
    variant: 'time zone',
    req: () => ({ url: '/api/me/profile', body: { timeZone: 'Europe/Paris' } }),
    expect: allow(200),
  },
  {
    route: 'POST /api/me/email',
    variant: 'a new address',
    req: (_w, me) => ({ url: '/api/me/email', body: { email: uniqueEmail('move'), currentPassword: me?.password } }),
    expect: allow(202),
  },
  {
    route: 'POST /api/auth/confirm-email-change',
    variant: 'unknown link',
    req: () => ({ url: '/api/auth/confirm-email-change', body: { token: randomBytes(32).toString('base64url') } }),
    expect: everyone(400),
  },
  {
    // A right one would end the people's other sessions: a wrong current password is refused the same for all.
    route: 'POST /api/me/password',
    variant: 'wrong current password',
    req: () => ({ url: '/api/me/password', body: { currentPassword: 'not the password', password: 'a fresh long secret' } }),
    expect: allow(400),
  },
  {
    route: 'POST /api/me/delete',
    variant: 'typed address of someone else',
    req: (w) => ({ url: '/api/me/delete', body: { email: w.p.ownerB.email } }),
    expect: allow(400),
  },
  {
    route: 'GET /api/me/notification-preferences',
    variant: '',
    req: () => ({ url: '/api/me/notification-preferences' }),
    expect: allow(200),
  },
  {
    route: 'PUT /api/me/notification-preferences',
    variant: 'all on',
    req: () => ({
      url: '/api/me/notification-preferences',
      body: {
        preferences: Object.fromEntries(NOTIFICATION_PREFERENCE_KINDS.map((k) => [k, { inApp: true, email: true }])),
        digestEnabled: true,
      },
    }),
    expect: allow(200),
  },

  // ---- search, saved views, calendar feed, analytics (issues 23, 24) ----
  {
    // Every caller may search; what they find is theirs (the leak scan reads every answer).
    route: 'GET /api/search',
    variant: 'words of every fixture',
    req: () => ({ url: '/api/search?q=task&limit=20' }),
    expect: allow(200),
  },
  { route: 'GET /api/views', variant: '', req: () => ({ url: '/api/views' }), expect: allow(200) },
  {
    route: 'POST /api/views',
    variant: 'personal',
    req: () => ({ url: '/api/views', body: { name: 'Mine', teamId: null, config: { priority: 'high' } } }),
    expect: allow(201),
  },
  {
    route: 'POST /api/views',
    variant: 'shared with team A',
    req: (w) => ({ url: '/api/views', body: { name: 'Ours', teamId: w.a.teamId, config: { view: 'list' } } }),
    expect: teamA(201),
  },
  {
    route: 'POST /api/views',
    variant: 'shared with team B',
    req: (w) => ({ url: '/api/views', body: { name: 'Theirs', teamId: w.b.teamId, config: {} } }),
    expect: teamB(201),
    foreignBodyId: 'teamId',
  },
  {
    // The member's view shared with team A: its owner and the team's owners/admins may change it, other members see it.
    route: 'PATCH /api/views/{id}',
    variant: "the member's shared view, renamed",
    req: (w) => ({ url: `/api/views/${w.a.viewId}`, body: { name: 'Renamed' } }),
    // A view shared with the team is not in the guest's project: the guest does not see it.
    expect: teamA(200, { memberAB: 403, guest: 404 }),
  },
  {
    route: 'PATCH /api/views/{id}',
    variant: "the member's shared view, moved to team B",
    req: (w) => ({ url: `/api/views/${w.a.viewId}`, body: { teamId: w.b.teamId } }),
    expect: teamA(404, { memberAB: 403, adminAB: 200, guest: 404 }),
    foreignBodyId: 'teamId',
  },
  {
    route: 'DELETE /api/views/{id}',
    variant: "the member's shared view",
    req: (w) => ({ url: `/api/views/${w.a.viewId}` }),
    expect: teamA(204, { memberAB: 403, guest: 404 }),
  },
  {
    route: 'DELETE /api/views/{id}',
    variant: "team B's shared view",
    req: (w) => ({ url: `/api/views/${w.a.foreignViewId}` }),
    // Owned by team B's plain member (`other`); the two-team callers are plain members there.
    expect: teamB(204, { memberAB: 403, adminAB: 403 }),
  },
  { route: 'GET /api/me/calendar-feed', variant: '', req: () => ({ url: '/api/me/calendar-feed' }), expect: allow(200) },
  {
    route: 'POST /api/me/calendar-feed',
    variant: '',
    req: () => ({ url: '/api/me/calendar-feed', body: {} }),
    expect: allow(201),
  },
  { route: 'DELETE /api/me/calendar-feed', variant: '', req: () => ({ url: '/api/me/calendar-feed' }), expect: allow(204) },
  {
    route: 'GET /api/calendar/feeds/{token}/crewboard.ics',
    variant: 'unknown token',
    req: () => ({ url: `/api/calendar/feeds/cal_${randomBytes(32).toString('base64url')}/crewboard.ics` }),
    expect: everyone(404),
  },
  // Personal API tokens (issue 26): each person's own; someone else's id is not found.
  { route: 'GET /api/me/api-tokens', variant: '', req: () => ({ url: '/api/me/api-tokens' }), expect: allow(200) },
  {
    route: 'POST /api/me/api-tokens',
    variant: '',
    req: () => ({ url: '/api/me/api-tokens', body: { name: 'CI', expiresInDays: 30, scope: 'read' } }),
    expect: allow(201),
  },
  {
    route: 'DELETE /api/me/api-tokens/{id}',
    variant: "the member's token",
    req: (w) => ({ url: `/api/me/api-tokens/${w.a.memberTokenId}` }),
    expect: withTwoTeam(
      { anon: 401, outsider: 404, member: 204, admin: 404, owner: 404, viewer: 404, guest: 404, super: 404, other: 404 },
      {
        memberAB: 404,
        adminAB: 404,
      },
    ),
  },
  // Webhooks (issue 26): the team's owner and admins; its members are refused, everyone else does not see the team.
  {
    route: 'GET /api/teams/{id}/webhooks',
    variant: 'team A',
    req: (w) => ({ url: `/api/teams/${w.a.teamId}/webhooks` }),
    expect: teamA(200, { member: 403, memberAB: 403 }),
  },
  {
    route: 'POST /api/teams/{id}/webhooks',
    variant: 'team A, a public address',
    req: (w) => ({
      url: `/api/teams/${w.a.teamId}/webhooks`,
      body: { url: 'https://93.184.216.34/in', events: ['task.created'] },
    }),
    expect: teamA(201, { member: 403, memberAB: 403 }),
  },
  {
    route: 'PATCH /api/teams/{id}/webhooks/{webhookId}',
    variant: "team A's hook",
    req: (w) => ({ url: `/api/teams/${w.a.teamId}/webhooks/${w.a.webhookId}`, body: { description: 'Renamed' } }),
    expect: teamA(200, { member: 403, memberAB: 403 }),
  },
  {
    route: 'PATCH /api/teams/{id}/webhooks/{webhookId}',
    variant: "team B's hook through team A",
    req: (w) => ({ url: `/api/teams/${w.a.teamId}/webhooks/${w.b.webhookId}`, body: { active: false } }),
    expect: teamA(404, { member: 403, memberAB: 403 }),
  },
  {
    route: 'DELETE /api/teams/{id}/webhooks/{webhookId}',
    variant: "team A's hook",
    req: (w) => ({ url: `/api/teams/${w.a.teamId}/webhooks/${w.a.webhookId}` }),
    expect: teamA(204, { member: 403, memberAB: 403 }),
  },
  {
    route: 'GET /api/teams/{id}/webhooks/{webhookId}/deliveries',
    variant: "team A's hook",
    req: (w) => ({ url: `/api/teams/${w.a.teamId}/webhooks/${w.a.webhookId}/deliveries` }),
    expect: teamA(200, { member: 403, memberAB: 403 }),
  },
  {
    route: 'POST /api/teams/{id}/webhooks/{webhookId}/deliveries/{deliveryId}/redeliver',
    variant: "team A's delivery",
    req: (w) => ({ url: `/api/teams/${w.a.teamId}/webhooks/${w.a.webhookId}/deliveries/${w.a.deliveryId}/redeliver`, body: {} }),
    expect: teamA(202, { member: 403, memberAB: 403 }),
  },
  {
    route: 'POST /api/teams/{id}/webhooks/{webhookId}/test',
    variant: "team A's hook",
    req: (w) => ({ url: `/api/teams/${w.a.teamId}/webhooks/${w.a.webhookId}/test`, body: {} }),
    expect: teamA(202, { member: 403, memberAB: 403 }),
  },
  // The audit log (issue 26): all of it for super admins; a team's rows for its owner and admins. Nothing changes it.
  {
    route: 'GET /api/admin/audit',
    variant: '',
    req: () => ({ url: '/api/admin/audit' }),
    expect: superOnly(200),
    noLeakScan: true,
  },
  {
    route: 'GET /api/admin/audit.csv',
    variant: '',
    req: () => ({ url: '/api/admin/audit.csv' }),
    expect: superOnly(200),
    noLeakScan: true,
  },
  {
    route: 'GET /api/teams/{id}/audit',
    variant: 'team A',
    req: (w) => ({ url: `/api/teams/${w.a.teamId}/audit` }),
    expect: teamA(200, { member: 403, memberAB: 403 }),
  },
  {
    route: 'GET /api/teams/{id}/audit.csv',
    variant: 'team A',
    req: (w) => ({ url: `/api/teams/${w.a.teamId}/audit.csv` }),
    expect: teamA(200, { member: 403, memberAB: 403 }),
  },
  // Export and import (issue 26): any active member of the team.
  {
    route: 'GET /api/teams/{id}/export',
    variant: 'team A',
    req: (w) => ({ url: `/api/teams/${w.a.teamId}/export` }),
    // The whole team (its people, notes, every project): not for a guest, who exports their projects' tasks (CSV).
    expect: teamA(200, { guest: 403 }),
  },
  {
    route: 'GET /api/teams/{id}/export.csv',
    variant: 'team A, its project',
    req: (w) => ({ url: `/api/teams/${w.a.teamId}/export.csv?projectId=${w.a.projectId}` }),
    expect: teamA(200),
  },
  {
    route: 'GET /api/teams/{id}/export.csv',
    variant: 'team A, its second project',
    req: (w) => ({ url: `/api/teams/${w.a.teamId}/export.csv?projectId=${w.a.project2Id}` }),
    expect: teamA(200, { guest: 404 }),
  },
  {
    route: 'POST /api/teams/{id}/import/trello',
    variant: 'team A, a dry run',
    req: (w) => ({
      url: `/api/teams/${w.a.teamId}/import/trello`,
      body: {
        board: { name: 'Board', lists: [{ id: 'l1', name: 'To Do' }], cards: [{ id: 'c1', name: 'Card', idList: 'l1' }] },
        dryRun: true,
      },
    }),
    expect: teamA(200),
  },
  {
    route: 'POST /api/teams/{id}/import/csv',
    variant: 'team A, a dry run',
    req: (w) => ({ url: `/api/teams/${w.a.teamId}/import/csv`, body: { csv: 'Title\nOne\n', dryRun: true } }),
    expect: teamA(200),
  },
  {
    route: 'POST /api/teams/{id}/import/csv',
    variant: "into team B's project through team A",
    req: (w) => ({
      url: `/api/teams/${w.a.teamId}/import/csv`,
      body: { csv: 'Title\nOne\n', projectId: w.b.projectId, dryRun: true },
    }),
    expect: teamA(404),
    foreignBodyId: 'projectId',
  },
  {
    route: 'POST /api/teams/import',
    variant: 'a Crewboard export into a new team',
    req: () => ({
      url: '/api/teams/import',
      body: {
        format: 'crewboard-export',
        version: 1,
        exportedAt: new Date().toISOString(),
        team: { name: 'Imported team', description: null },
        members: [],
        projects: [],
        tasks: [],
        notes: [],
      },
    }),
    expect: allow(201),
  },
  // Notes (issue 25): the team's members; the author, owner and admins delete. The member's note is the team's (in
  // no project): the viewer reads it, the guest, who sees only the project given to them, does not see it.
  { route: 'GET /api/notes', variant: 'all my teams', req: () => ({ url: '/api/notes' }), expect: allow(200) },
  {
    route: 'POST /api/notes',
    variant: 'team A',
    req: (w) => ({ url: '/api/notes', body: { teamId: w.a.teamId, title: 'Runbook' } }),
    expect: teamA(201),
  },
  {
    route: 'POST /api/notes',
    variant: 'team B',
    req: (w) => ({ url: '/api/notes', body: { teamId: w.b.teamId, title: 'Theirs' } }),
    expect: teamB(201),
    foreignBodyId: 'teamId',
  },
  {
    route: 'POST /api/notes',
    variant: "team A with team B's project",
    req: (w) => ({ url: '/api/notes', body: { teamId: w.a.teamId, projectId: w.b.projectId, title: 'Crossed' } }),
    expect: teamA(404),
    foreignBodyId: 'projectId',
  },
  {
    route: 'GET /api/notes/{id}',
    variant: "the member's note",
    req: (w) => ({ url: `/api/notes/${w.a.noteId}` }),
    expect: teamA(200, { guest: 404 }),
  },
  {
    route: 'PATCH /api/notes/{id}',
    variant: 'pinned',
    req: (w) => ({ url: `/api/notes/${w.a.noteId}`, body: { pinned: true } }),
    expect: teamA(200, { guest: 404 }),
  },
  {
    route: 'PATCH /api/notes/{id}',
    variant: "moved to team B's project",
    req: (w) => ({ url: `/api/notes/${w.a.noteId}`, body: { projectId: w.b.projectId } }),
    expect: teamA(404, { guest: 404 }),
    foreignBodyId: 'projectId',
  },
  {
    route: 'DELETE /api/notes/{id}',
    variant: "the member's note",
    req: (w) => ({ url: `/api/notes/${w.a.noteId}` }),
    expect: teamA(204, { memberAB: 403, guest: 404 }),
  },
  {
    route: 'POST /api/notes/{id}/socket-ticket',
    variant: '',
    req: (w) => ({ url: `/api/notes/${w.a.noteId}/socket-ticket`, body: {} }),
    // A ticket to read the note live: the viewer may (the socket refuses their edits).
    expect: teamA(200, { viewer: 200, guest: 404 }),
  },
  {
    route: 'GET /api/notes/{id}/versions',
    variant: '',
    req: (w) => ({ url: `/api/notes/${w.a.noteId}/versions` }),
    expect: teamA(200, { guest: 404 }),
  },
  {
    route: 'POST /api/notes/{id}/versions',
    variant: '',
    req: (w) => ({ url: `/api/notes/${w.a.noteId}/versions`, body: {} }),
    expect: teamA(201, { guest: 404 }),
  },
  {
    route: 'GET /api/notes/{id}/versions/{versionId}',
    variant: '',
    req: (w) => ({ url: `/api/notes/${w.a.noteId}/versions/${w.a.noteVersionId}` }),
    expect: teamA(200, { guest: 404 }),
  },
  {
    route: 'GET /api/notes/{id}/versions/{versionId}',
    variant: "team B's version under team A's note",
    req: (w) => ({ url: `/api/notes/${w.a.noteId}/versions/${w.b.noteVersionId}` }),
    expect: teamA(404),
  },
  {
    route: 'POST /api/notes/{id}/versions/{versionId}/restore',
    variant: '',
    req: (w) => ({ url: `/api/notes/${w.a.noteId}/versions/${w.a.noteVersionId}/restore`, body: {} }),
    expect: teamA(200, { guest: 404 }),
  },
  {
    route: 'POST /api/notes/{id}/images',
    variant: 'a PNG',
    req: (w) => ({ url: `/api/notes/${w.a.noteId}/images`, multipart: { fileName: 'dot.png', content: ONE_PIXEL_PNG } }),
    expect: teamA(201, { guest: 404 }),
  },
  {
    route: 'GET /api/notes/{id}/images/{file}',
    variant: 'a forged signature',
    req: (w) => ({ url: `/api/notes/${w.a.noteId}/images/${randomUUID()}.png?sig=${'0'.repeat(43)}` }),
    expect: everyone(404),
  },
  { route: 'GET /api/analytics', variant: 'all my teams', req: () => ({ url: '/api/analytics?weeks=4' }), expect: allow(200) },
  {
    route: 'GET /api/analytics',
    variant: 'team A, its project',
    req: (w) => ({ url: `/api/analytics?teamId=${w.a.teamId}&projectId=${w.a.projectId}` }),
    expect: teamA(200),
  },
  {
    route: 'GET /api/analytics',
    variant: 'team B',
    req: (w) => ({ url: `/api/analytics?teamId=${w.b.teamId}` }),
    expect: teamB(200),
  },
  {
    route: 'GET /api/analytics',
    variant: "split by team A's Select field",
    req: (w) => ({ url: `/api/analytics?weeks=4&splitBy=${w.a.fieldId}` }),
    expect: teamA(200),
  },
  {
    route: 'GET /api/analytics',
    variant: "split by team B's Select field",
    req: (w) => ({ url: `/api/analytics?weeks=4&splitBy=${w.b.fieldId}` }),
    expect: teamB(200),
  },
  {
    route: 'GET /api/analytics/cumulative-flow',
    variant: "team A's project",
    req: (w) => ({ url: `/api/analytics/cumulative-flow?projectId=${w.a.projectId}&weeks=4` }),
    expect: teamA(200),
  },
  {
    route: 'GET /api/analytics/cumulative-flow',
    variant: "team A's second project",
    req: (w) => ({ url: `/api/analytics/cumulative-flow?projectId=${w.a.project2Id}&weeks=4` }),
    expect: teamA(200, { guest: 404 }),
  },
  {
    route: 'GET /api/analytics/cumulative-flow',
    variant: "team B's project",
    req: (w) => ({ url: `/api/analytics/cumulative-flow?projectId=${w.b.projectId}` }),
    expect: teamB(200),
  },
  {
    route: 'GET /api/analytics/time',
    variant: 'team A',
    req: (w) => ({ url: `/api/analytics/time?teamId=${w.a.teamId}&weeks=4` }),
    expect: teamA(200),
  },
  {
    route: 'GET /api/analytics/time',
    variant: "team B's project",
    req: (w) => ({ url: `/api/analytics/time?projectId=${w.b.projectId}` }),
    expect: teamB(200),
  },
  {
    route: 'GET /api/tasks/occurrences',
    variant: 'every project I see',
    req: () => ({ url: '/api/tasks/occurrences?from=2026-01-01&to=2026-12-31' }),
    expect: allow(200),
  },
  {
    route: 'GET /api/tasks/occurrences',
    variant: "team A's project",
    req: (w) => ({ url: `/api/tasks/occurrences?projectId=${w.a.projectId}&from=2026-01-01&to=2026-12-31` }),
    expect: teamA(200),
  },
  {
    route: 'GET /api/tasks/occurrences',
    variant: 'team B',
    req: (w) => ({ url: `/api/tasks/occurrences?teamId=${w.b.teamId}&from=2026-01-01&to=2026-12-31` }),
    expect: teamB(200),
  },
  {
    route: 'GET /api/timeline',
    variant: 'every project I see',
    req: () => ({ url: '/api/timeline?from=2026-01-01&to=2026-12-31' }),
    expect: allow(200),
  },
  {
    route: 'GET /api/timeline',
    variant: "team A's project",
    req: (w) => ({ url: `/api/timeline?projectId=${w.a.projectId}&from=2026-01-01&to=2026-12-31` }),
    expect: teamA(200),
  },
  {
    route: 'GET /api/timeline',
    variant: 'team B',
    req: (w) => ({ url: `/api/timeline?teamId=${w.b.teamId}&from=2026-01-01&to=2026-12-31` }),
    expect: teamB(200),
  },

  // ---- admin ----
  {
    route: 'GET /api/admin/overview',
    variant: '',
    req: () => ({ url: '/api/admin/overview' }),
    expect: superOnly(200),
    noLeakScan: true,
  },
  {
    route: 'GET /api/admin/users',
    variant: '',
    req: () => ({ url: '/api/admin/users' }),
    expect: superOnly(200),
    noLeakScan: true,
  },
  {
    route: 'PATCH /api/admin/users/{id}',
    variant: 'the member',
    req: (w) => ({ url: `/api/admin/users/${w.p.member.id}`, body: { isActive: true } }),
    expect: superOnly(200),
    noLeakScan: true,
  },

  // ---- single sign-on and provisioning (issue 41): SAML sign-in is public; its settings and SCIM tokens are the
  // super admins' (the /scim/v2 routes are outside /api and the document, with a token of their own) ----
  {
    route: 'GET /api/auth/saml/metadata',
    variant: 'the SP metadata (public)',
    req: () => ({ url: '/api/auth/saml/metadata' }),
    expect: everyone(200),
  },
  {
    route: 'GET /api/auth/saml/start',
    variant: 'not configured (back to the login page)',
    req: () => ({ url: '/api/auth/saml/start' }),
    expect: everyone(302),
  },
  {
    route: 'POST /api/auth/saml/acs',
    variant: 'a forged response (back to the login page)',
    req: () => ({ url: '/api/auth/saml/acs', body: { SAMLResponse: Buffer.from('<Response/>').toString('base64') } }),
    expect: everyone(303),
  },
  { route: 'GET /api/admin/sso', variant: '', req: () => ({ url: '/api/admin/sso' }), expect: superOnly(200), noLeakScan: true },
  {
    route: 'PUT /api/admin/sso',
    variant: 'off',
    req: () => ({ url: '/api/admin/sso', body: { enabled: false, idpInitiated: false } }),
    expect: superOnly(200),
    noLeakScan: true,
  },
  {
    route: 'GET /api/admin/scim-tokens',
    variant: '',
    req: () => ({ url: '/api/admin/scim-tokens' }),
    expect: superOnly(200),
    noLeakScan: true,
  },
  {
    route: 'POST /api/admin/scim-tokens',
    variant: '',
    req: () => ({ url: '/api/admin/scim-tokens', body: { name: 'Matrix' } }),
    expect: superOnly(201),
    noLeakScan: true,
  },
  {
    route: 'DELETE /api/admin/scim-tokens/{id}',
    variant: 'unknown token',
    req: () => ({ url: `/api/admin/scim-tokens/${randomUUID()}` }),
    expect: superOnly(404),
    noLeakScan: true,
  },
  // SCIM (RFC 7644) answers a SCIM token only: a session's token, anyone's, is refused before anything is read.
  ...(
    [
      ['GET', '/ServiceProviderConfig'],
      ['GET', '/Schemas'],
      ['GET', '/Schemas/{id}'],
      ['GET', '/ResourceTypes'],
      ['GET', '/ResourceTypes/{id}'],
      ...['Users', 'Groups'].flatMap((kind) => [
        ['GET', `/${kind}`],
        ['POST', `/${kind}`],
        ['GET', `/${kind}/{id}`],
        ['PUT', `/${kind}/{id}`],
        ['PATCH', `/${kind}/{id}`],
        ['DELETE', `/${kind}/{id}`],
      ]),
    ] as const
  ).map(
    ([method, path]): Row => ({
      route: `${method} /scim/v2${path}`,
      variant: "a session's token",
      req: (w) => ({
        url: `/scim/v2${path.replace('{id}', w.p.member.id)}`,
        ...(method === 'POST' || method === 'PUT'
          ? { body: { schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'], userName: uniqueEmail('scim') } }
          : method === 'PATCH'
            ? {
                body: {
                  schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
                  Operations: [{ op: 'replace', path: 'active', value: false }],
                },
              }
            : {}),
      }),
      expect: everyone(401),
    }),
  ),
];

/**
 * Writes that change only the caller's own account, a new team of theirs or the system's settings, never team A: its
 * copy is kept after them (building copies is most of this file's time).
 */
const LEAVES_TEAM_A = new Set([
  'POST /api/auth/signup',
  'POST /api/auth/token',
  'POST /api/auth/logout',
  'POST /api/auth/forgot-password',
  'POST /api/auth/resend-verification',
  'POST /api/auth/saml/acs',
  'DELETE /api/me/sessions/{id}',
  'POST /api/me/sessions/revoke-others',
  'POST /api/me/2fa/setup',
  'POST /api/teams',
  'POST /api/teams/import',
  'POST /api/me/avatar',
  'DELETE /api/me/avatar',
  'PATCH /api/me/profile',
  'POST /api/me/email',
  'PUT /api/me/notification-preferences',
  'POST /api/notifications/read-all',
  'POST /api/me/calendar-feed',
  'DELETE /api/me/calendar-feed',
  'POST /api/me/api-tokens',
  'PUT /api/admin/sso',
  'POST /api/admin/scim-tokens',
  'PATCH /api/admin/users/{id}',
]);

// ---- the world ----

/**
 * A team with owner/admin/member from `p` (plus an extra target member), the two-team callers
 * (`twoTeamRole`: the admin's role for team A, member for team B), a project, tasks, invitations; a second project
 * (A2) with a task and a note; with `p.viewer` and `p.guest` (team A), its viewer and its guest, given the first
 * project, with a task assigned to them, and a second guest given nothing.
 */
async function buildScope(
  p: Pick<People, 'owner' | 'admin' | 'member' | 'outsider' | 'memberAB' | 'adminAB'> & Partial<Pick<People, 'viewer' | 'guest'>>,
  twoTeamRole: 'admin' | 'member',
  /** Team B and its plain member, for team A's copies: `foreignViewId` is a view shared there. */
  foreign?: { teamId: string; ownerId: string },
): Promise<Scope> {
  // One transaction: a copy is some thirty small writes, and one commit costs less than thirty.
  return ctx.database.db.transaction(async (db) => {
    // Fresh with each copy and never acting: the guest must see neither of them (they have no task in the project).
    const [extra, extraGuest] = await db
      .insert(users)
      .values([
        { email: uniqueEmail('extra'), fullName: 'Extra Member' },
        { email: uniqueEmail('extraguest'), fullName: 'Extra Guest' },
      ])
      .returning();
    const team = (
      await db
        .insert(teams)
        .values({ name: `Team ${randomBytes(3).toString('hex')}`, ownerId: p.owner.id })
        .returning()
    )[0]!;
    const roles: [{ id: string } | undefined, TeamRole][] = [
      [p.owner, 'owner'],
      [p.admin, 'admin'],
      [p.member, 'member'],
      [p.memberAB, 'member'],
      [p.adminAB, twoTeamRole],
      [extra, 'member'],
      [extraGuest, 'guest'],
      [p.viewer, 'viewer'],
      [p.guest, 'guest'],
    ];
    const memberships = await db
      .insert(teamMembers)
      .values(roles.flatMap(([u, role]) => (u ? [{ teamId: team.id, userId: u.id, role, status: 'active' as const }] : [])))
      .returning();
    const membershipOf = (u: { id: string } | undefined) => memberships.find((m) => m.userId === u?.id)!;
    const ownerMember = membershipOf(p.owner);
    const target = membershipOf(extra);
    const extraGuestMember = membershipOf(extraGuest);
    const [project, project2] = await db
      .insert(projects)
      .values([
        { name: 'Project', teamId: team.id, ownerId: p.owner.id },
        { name: `${SECRET} project ${randomBytes(3).toString('hex')}`, teamId: team.id, ownerId: p.owner.id },
      ])
      .returning();
    await insertDefaultStatuses(db, [project!.id, project2!.id]);
    const bothStatuses = await db
      .select()
      .from(projectStatuses)
      .where(inArray(projectStatuses.projectId, [project!.id, project2!.id]))
      .orderBy(projectStatuses.position);
    const statuses = bothStatuses.filter((s) => s.projectId === project!.id);
    const project2StatusIds = bothStatuses.filter((s) => s.projectId === project2!.id).map((s) => s.id);
    const statusId = (key: string) => statuses.find((s) => s.key === key)!.id;
    // One insert (the sub-task's parent is named by an id chosen here): the order of `values` is the order returned.
    const parentId = randomUUID();
    const [task, memberTask, memberABTask, parentTask, subtask, guestTask, project2Task] = await db
      .insert(tasks)
      .values([
        { title: 'Owner task', projectId: project!.id, creatorId: p.owner.id },
        { title: 'Member task', projectId: project!.id, creatorId: p.member.id },
        { title: 'Two-team member task', projectId: project!.id, creatorId: p.memberAB.id },
        { id: parentId, title: 'Parent task', projectId: project!.id, creatorId: p.owner.id },
        { title: 'Sub-task', projectId: project!.id, creatorId: p.owner.id, parentId, subtaskPosition: 0 },
        { title: 'Guest task', projectId: project!.id, creatorId: p.owner.id, assigneeId: p.guest?.id ?? null },
        { title: `${SECRET} task`, projectId: project2!.id, creatorId: p.owner.id },
      ])
      .returning();
    if (p.guest) await db.insert(projectGuests).values({ projectId: project!.id, userId: p.guest.id, addedBy: p.owner.id });
    // The member's task is blocked by the parent task (issue 37): the dependency the delete rows remove. The guest's task
    // is blocked by A2's: a hidden ref for the guest.
    await db.insert(taskDependencies).values([
      { taskId: memberTask!.id, blockedById: parentTask!.id, createdBy: p.owner.id },
      { taskId: guestTask!.id, blockedById: project2Task!.id, createdBy: p.owner.id },
    ]);
    const common = {
      teamId: team.id,
      teamName: team.name,
      invitedBy: p.owner.id,
      inviterName: 'Owner',
      inviterEmail: p.owner.email,
    };
    const [invitation, outsiderInvitation] = await db
      .insert(teamInvitations)
      .values([
        { ...common, email: uniqueEmail('someone') },
        { ...common, email: p.outsider.email },
      ])
      .returning();
    const [note] = await db
      .insert(notifications)
      .values({
        userId: p.member.id,
        type: 'task_assigned',
        title: 'Assigned',
        message: 'You were assigned',
        data: { teamId: team.id },
      })
      .returning();
    const [comment] = await db
      .insert(taskComments)
      .values({ taskId: task!.id, authorId: p.member.id, body: 'Member comment' })
      .returning();
    const [attachment] = await db
      .insert(taskAttachments)
      .values({
        taskId: task!.id,
        uploaderId: p.member.id,
        fileName: 'file.txt',
        contentType: 'text/plain',
        size: 5,
        storageKey: `tasks/${task!.id}/${randomUUID()}`,
      })
      .returning();
    const [item] = await db.insert(taskChecklistItems).values({ taskId: task!.id, title: 'Item', position: 1 }).returning();
    const [timeEntry] = await db
      .insert(timeEntries)
      .values({ taskId: task!.id, userId: p.member.id, date: today, minutes: 30 })
      .returning();
    // One view at a time: a fresh copy per cell would otherwise take the member past the saved-view limit.
    await db.delete(savedViews).where(eq(savedViews.ownerId, p.member.id));
    const [view] = await db
      .insert(savedViews)
      .values({ ownerId: p.member.id, teamId: team.id, name: 'Shared view', config: { status: 'todo' } })
      .returning();
    // A view of team B's plain member shared with team B, fresh for each cell (its owner may delete it).
    if (foreign)
      await db.delete(savedViews).where(and(eq(savedViews.ownerId, foreign.ownerId), eq(savedViews.name, 'Their view')));
    const [foreignView] = foreign
      ? await db
          .insert(savedViews)
          .values({ ownerId: foreign.ownerId, teamId: foreign.teamId, name: 'Their view', config: {} })
          .returning()
      : [undefined];
    // One token at a time, as with views: a fresh copy per cell would take the member past the token limit.
    await db.delete(apiTokens).where(eq(apiTokens.userId, p.member.id));
    const [token] = await db
      .insert(apiTokens)
      .values({
        userId: p.member.id,
        name: 'Script',
        tokenHash: randomBytes(32).toString('hex'),
        prefix: 'cb_test',
        scope: 'read',
      })
      .returning();
    const [hook] = await db
      .insert(webhooks)
      .values({
        teamId: team.id,
        url: 'https://93.184.216.34/hook',
        events: ['task.created'],
        secret: 'sealed',
        createdById: p.owner.id,
      })
      .returning();
    // Delivered already: the worker has nothing to send (no network here).
    const [delivery] = await db
      .insert(webhookDeliveries)
      .values({
        webhookId: hook!.id,
        messageId: `msg_${randomUUID()}`,
        eventType: 'task.created',
        body: '{}',
        deliveredAt: new Date(),
      })
      .returning();
    const [noteRow, project2Note] = await db
      .insert(notes)
      .values([
        { teamId: team.id, title: 'Member note', authorId: p.member.id },
        { teamId: team.id, projectId: project2!.id, title: `${SECRET} note`, authorId: p.member.id },
      ])
      .returning();
    const [field] = await db
      .insert(customFields)
      .values({
        teamId: team.id,
        name: 'Severity',
        type: 'select',
        options: [{ id: randomUUID(), name: 'High', color: '#dc2626' }],
      })
      .returning();
    const [version] = await db
      .insert(noteVersions)
      .values({ noteId: noteRow!.id, kind: 'manual', state: Buffer.from([0, 0]), title: 'Member note', createdById: p.member.id })
      .returning();
    const formToken = randomBytes(24).toString('base64url');
    const [form] = await db
      .insert(forms)
      .values({
        projectId: project!.id,
        name: 'Matrix form',
        fields: [{ key: 'title', label: 'Title', help: null, required: true }],
        status: 'todo',
        tokenHash: createHash('sha256').update(formToken).digest('hex'),
        tokenSealed: await new Sealer(ctx.config.authSecret, 'form-token').seal({ t: formToken }),
        createdById: p.owner.id,
      })
      .returning();
    const requestToken = randomBytes(24).toString('base64url');
    await db
      .insert(requestLinks)
      .values({ tokenHash: createHash('sha256').update(requestToken).digest('hex'), taskId: task!.id, email: 'req@example.com' });
    const scope = {
      teamId: team.id,
      projectId: project!.id,
      taskId: task!.id,
      memberTaskId: memberTask!.id,
      memberABTaskId: memberABTask!.id,
      parentTaskId: parentTask!.id,
      subtaskId: subtask!.id,
      invitationId: invitation!.id,
      outsiderInvitationId: outsiderInvitation!.id,
      targetMemberId: target.id,
      ownerMemberId: ownerMember!.id,
      notificationId: note!.id,
      commentId: comment!.id,
      attachmentId: attachment!.id,
      checklistItemId: item!.id,
      viewId: view!.id,
      memberTokenId: token!.id,
      webhookId: hook!.id,
      noteId: noteRow!.id,
      noteVersionId: version!.id,
      reviewStatusId: statusId('review'),
      inProgressStatusId: statusId('in_progress'),
      fieldId: field!.id,
      timeEntryId: timeEntry!.id,
      formId: form!.id,
      extraGuestId: extraGuest!.id,
      guestTaskId: guestTask!.id,
      project2Id: project2!.id,
      project2TaskId: project2Task!.id,
      project2NoteId: project2Note!.id,
    };
    // The delivery's id is a small number (not a uuid): left out of the leak scan's ids.
    return {
      ...scope,
      deliveryId: String(delivery!.id),
      foreignViewId: foreignView?.id ?? '',
      formToken,
      requestToken,
      statusIds: statuses.map((s) => s.id),
      extraUserId: extra!.id,
      ids: [...Object.values(scope), ...statuses.map((s) => s.id), ...project2StatusIds],
      guestHidden: [
        SECRET,
        project2!.id,
        project2Task!.id,
        project2Note!.id,
        ...project2StatusIds,
        extra!.id,
        target.id,
        extraGuest!.id,
        extraGuestMember.id,
      ],
    };
  });
}

interface JsonSchema {
  format?: string;
  properties?: Record<string, JsonSchema>;
  anyOf?: JsonSchema[];
}
interface OpenApiDoc {
  paths: Record<string, Record<string, { requestBody?: { content?: Record<string, { schema?: JsonSchema }> } }>>;
}

/** `METHOD /path field` for every id (a uuid property) of every request body in the document. */
function bodyIdFields(doc: OpenApiDoc): string[] {
  return Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops).flatMap(([method, op]) => {
      const schema = op.requestBody?.content?.['application/json']?.schema;
      const shapes = schema?.anyOf ?? (schema ? [schema] : []);
      return shapes.flatMap((shape) =>
        Object.entries(shape.properties ?? {})
          .filter(([, prop]) => prop.format === 'uuid' || prop.anyOf?.some((p) => p.format === 'uuid'))
          .map(([name]) => `${method.toUpperCase()} ${path} ${name}`),
      );
    }),
  );
}

/** For the event stream, which inject() cannot end: a real listener (closed with the app). */
let listenUrl = '';

async function send(w: World, row: Row, role: Role, me: TestUser | null): Promise<{ status: number; body: string }> {
  const r = row.req(w, me);
  const [method] = row.route.split(' ');
  const headers: Record<string, string> = me ? { authorization: `Bearer ${me.token}` } : {};
  if (r.stream) {
    if (!listenUrl) {
      await ctx.app.listen({ port: 0, host: '127.0.0.1' });
      listenUrl = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
    }
    const abort = new AbortController();
    const res = await fetch(listenUrl + r.url, { headers, signal: abort.signal });
    abort.abort();
    return { status: res.status, body: '' };
  }
  if (r.multipart) {
    const boundary = `----matrix${randomBytes(8).toString('hex')}`;
    headers['content-type'] = `multipart/form-data; boundary=${boundary}`;
    const payload = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${r.multipart.fileName}"\r\n` +
          'Content-Type: application/octet-stream\r\n\r\n',
      ),
      Buffer.from(r.multipart.content),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const res = await ctx.app.inject({ method: method as 'POST', url: r.url, headers, payload });
    return { status: res.statusCode, body: res.body };
  }
  const res = await ctx.app.inject({
    method: method as 'GET',
    url: r.url,
    headers,
    ...(r.body === undefined ? {} : { payload: r.body as never }),
  });
  void role;
  return { status: res.statusCode, body: res.body };
}

describe('authorization matrix', () => {
  it('every route of the OpenAPI document answers every caller as the table says, and leaks nothing', async () => {
    const db = ctx.database.db;
    const names = [
      'Olive Owner',
      'Adam Admin',
      'Mia Member',
      'Otto Outsider',
      'Sue Super',
      'Bea Other',
      'Ben OwnerB',
      'Max MemberAB',
      'Ada AdminAB',
      'Vic Viewer',
      'Gus Guest',
    ];
    const [owner, admin, member, outsider, sup, other, ownerB, memberAB, adminAB, viewer, guest] = await Promise.all(
      names.map((fullName) => createUser(ctx.app, { fullName })),
    );
    await db.update(users).set({ role: 'super_admin' }).where(eq(users.id, sup!.id));
    const p: People = {
      owner: owner!,
      admin: admin!,
      member: member!,
      outsider: outsider!,
      super: sup!,
      other: other!,
      ownerB: ownerB!,
      memberAB: memberAB!,
      adminAB: adminAB!,
      viewer: viewer!,
      guest: guest!,
    };
    // Team B: ownerB owns it, `other` and the two-team callers are its plain members; it too has invited the outsider.
    const adminB = await createUser(ctx.app, { fullName: 'Admin B' });
    const b = await buildScope(
      { ...p, owner: p.ownerB, admin: adminB, member: p.other, viewer: undefined, guest: undefined },
      'member',
    );
    const userOf = (r: Role): TestUser | null => (r === 'anon' ? null : p[r]);

    // The table covers the document, and the document covers the table.
    const doc = (await ctx.app.inject('/api/openapi.json')).json() as OpenApiDoc;
    const documented = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`),
    );
    const tabled = new Set(TABLE.map((r) => r.route));
    // Soft: a gap in the table is told together with the cells' answers, not instead of them.
    expect
      .soft(
        documented.filter((r) => !tabled.has(r)),
        'routes missing from the authorization table',
      )
      .toEqual([]);
    expect
      .soft(
        [...tabled].filter((r) => !documented.includes(r)),
        'table rows for routes that do not exist',
      )
      .toEqual([]);
    expect
      .soft(
        [...LEAVES_TEAM_A].filter((r) => !tabled.has(r)),
        'LEAVES_TEAM_A names no route of the table',
      )
      .toEqual([]);
    // Every id a body carries is pointed at the other team, where the two-team callers can reach it.
    const crossed = new Set(TABLE.flatMap((r) => (r.foreignBodyId ? [`${r.route} ${r.foreignBodyId}`] : [])));
    expect
      .soft(
        bodyIdFields(doc).filter((f) => !crossed.has(f)),
        'body ids without a two-team row',
      )
      .toEqual([]);

    const mismatches: string[] = [];
    const leaks: string[] = [];
    let cells = 0;
    // Team A is built anew after a write that went through (what one caller changed must not decide another's answer);
    // a read, a write the server refused, or one that touches no team A (LEAVES_TEAM_A), changed nothing of it, so the
    // next cell keeps it. Building team A was two thirds of this file's time when every cell built its own.
    let current: Scope | undefined;
    // Where the time goes (the file runs in CI): copies of team A built, and the slowest rows' requests.
    let copies = 0;
    let buildMs = 0;
    const rowMs = new Map<string, number>();
    for (const row of TABLE) {
      const writes = !row.route.startsWith('GET ');
      const expected = byRule(row.route, row.expect);
      for (const role of ROLES) {
        if (!current) {
          const started = performance.now();
          current = await buildScope(p, 'admin', { teamId: b.teamId, ownerId: p.other.id });
          buildMs += performance.now() - started;
          copies++;
        }
        const a = current;
        const sent = performance.now();
        const w: World = { p, a, b, user: userOf };
        let me = userOf(role);
        if (me && row.freshSession) me = await signIn(ctx.app, me.email, me.password);
        const { status, body } = await send(w, row, role, me);
        const key = `${row.route} [${row.variant}]`;
        rowMs.set(key, (rowMs.get(key) ?? 0) + performance.now() - sent);
        if (writes && status < 400 && !LEAVES_TEAM_A.has(row.route)) {
          // The copy is retired: nobody is a member of it any more, so lists of "all my teams" stay one copy long.
          await db.delete(teamMembers).where(eq(teamMembers.teamId, a.teamId));
          current = undefined;
        }
        cells++;
        const want = expected[role];
        if (status !== want)
          mismatches.push(`${row.route} [${row.variant}] as ${role}: got ${status}, want ${want} ${body.slice(0, 160)}`);
        if (status >= 200 && status < 300 && !row.noLeakScan) {
          const hidden =
            role === 'memberAB' || role === 'adminAB'
              ? []
              : role === 'other'
                ? a.ids
                : role === 'outsider' || role === 'super' || role === 'anon'
                  ? [...a.ids, ...b.ids]
                  : role === 'guest'
                    ? [...b.ids, ...a.guestHidden]
                    : b.ids;
          // The outsider legitimately sees the invitation addressed to them (and its team id).
          const allowed =
            role === 'outsider'
              ? new Set([a.outsiderInvitationId, a.teamId, b.outsiderInvitationId, b.teamId])
              : new Set<string>();
          for (const id of hidden)
            if (!allowed.has(id) && body.includes(id)) leaks.push(`${row.route} [${row.variant}] as ${role} leaks ${id}`);
        }
      }
    }
    console.log(`authorization matrix: ${cells} cells checked, ${mismatches.length} mismatches, ${leaks.length} leaks`);
    const slowest = [...rowMs].sort((x, y) => y[1] - x[1]).slice(0, 5);
    console.log(
      `${copies} copies of team A in ${Math.round(buildMs)} ms; requests ${Math.round([...rowMs.values()].reduce((x, y) => x + y, 0))} ms, ` +
        `slowest: ${slowest.map(([k, ms]) => `${k} ${Math.round(ms)} ms`).join('; ')}`,
    );
    for (const m of [...mismatches, ...leaks]) console.log(m);
    expect(mismatches).toEqual([]);
    expect(leaks).toEqual([]);
    expect(cells).toBe(TABLE.length * ROLES.length);
  }, 600_000);
});

describe('roles come from the database on every request', () => {
  it('a demotion or a removal takes effect on the very next call', async () => {
    const db = ctx.database.db;
    const [owner, admin] = await Promise.all([createUser(ctx.app), createUser(ctx.app)]);
    const team = await insertTeam(db, owner);
    const row = await insertMember(db, team.id, admin, 'admin');
    const invite = () =>
      ctx.app.inject({
        method: 'POST',
        url: `/api/teams/${team.id}/invitations`,
        headers: admin.auth,
        payload: { email: uniqueEmail() },
      });
    expect((await invite()).statusCode).toBe(201);
    await db.update(teamMembers).set({ role: 'member' }).where(eq(teamMembers.id, row.id));
    expect((await invite()).statusCode).toBe(403);
    await db.delete(teamMembers).where(eq(teamMembers.id, row.id));
    expect((await invite()).statusCode).toBe(404);
    expect((await ctx.app.inject({ url: `/api/teams/${team.id}`, headers: admin.auth })).statusCode).toBe(404);
  });

  it('a system role granted in the database applies at once, without a new token', async () => {
    const u = await createUser(ctx.app);
    expect((await ctx.app.inject({ url: '/api/admin/overview', headers: u.auth })).statusCode).toBe(403);
    await ctx.database.db.update(users).set({ role: 'super_admin' }).where(eq(users.id, u.id));
    expect((await ctx.app.inject({ url: '/api/admin/overview', headers: u.auth })).statusCode).toBe(200);
  });
});
