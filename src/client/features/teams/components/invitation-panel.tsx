/** Pending invitations for the signed-in user, shown at the top of the dashboard. */
export function InvitationPanel() {
  return null;
}
