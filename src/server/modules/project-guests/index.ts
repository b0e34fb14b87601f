// The project guests module's public surface (issue 41): its routes.
export { registerProjectGuests } from './project-guests.routes';
