// The request forms module's public surface (issue 40): its routes. Nothing else reads its tables.
export { registerForms } from './forms.routes';
