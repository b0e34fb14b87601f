// The search module's public surface.
export { SearchService } from './search.service';
