// The teams module's public surface: its service, the invitation mail, the member DTO, and the team and membership
// reads and writes that import and webhooks share. (The membership guards are below the modules: db/membership.ts.)
export { invitationMailFor } from './invitation-mail';
export { toTeamMemberDto } from './teams.mapper';
export { addMember, createOne, getMemberInTeam, getOneById } from './teams.repo';
// The directory's group map (modules/ldap) keeps a member's row as the teams service would.
export { deleteInvitationsByTeamAndEmail, deleteMember, getMemberByUserId, updateMemberRole } from './teams.repo';
export { TeamsService } from './teams.service';
