// The custom fields module's public surface (issue 38): its routes, and what the tasks module needs — a team's fields
// by team id (values are checked against them). Keep these signatures stable: the tasks module calls them. (An import
// writes its fields through the transfer module's own repo, with the same owner-and-admin rule: domain/transfer.)
export { registerCustomFields } from './custom-fields.routes';
export { teamFields } from './custom-fields.service';
