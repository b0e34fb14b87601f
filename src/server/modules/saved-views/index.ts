// The saved views module's public surface.
export { SavedViewsService } from './saved-views.service';
