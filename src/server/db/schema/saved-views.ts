/** The Tasks page's saved views. */
import { index, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id, requiredRef, updatedAt } from './columns';
import { teams } from './teams';
import { users } from './users';

/**
 * The Tasks page's filters, search, sort and view, saved under a name. Personal (team_id null: its owner sees it) or
 * shared with a team (its active members see it; each applies the filters with their own visibility).
 */
export const savedViews = pgTable(
  'saved_views',
  {
    id: id(),
    ownerId: requiredRef('owner_id', () => users.id, 'cascade'),
    teamId: uuid('team_id').references(() => teams.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** The Tasks page's URL state (SavedViewConfig in domain/schemas/saved-view.ts). */
    config: jsonb('config').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('saved_views_owner_idx').on(t.ownerId), index('saved_views_team_idx').on(t.teamId)],
);
