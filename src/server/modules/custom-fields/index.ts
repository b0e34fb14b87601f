// The custom fields module's public surface (issue 38): its routes, and what the tasks module and the import need —
// a team's fields by team id (values are checked against them), and the creation of fields inside an import's
// transaction. Keep these signatures stable: the tasks and transfer modules call them.
export { registerCustomFields } from './custom-fields.routes';
export { createFieldsForImport, type NewFieldDefinition, teamFields } from './custom-fields.service';
