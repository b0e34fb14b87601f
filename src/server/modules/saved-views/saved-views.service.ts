import { canEditView } from '../../../domain/permissions';
import {
  type CreateSavedViewInput,
  SAVED_VIEW_LIMITS,
  type SavedViewConfig,
  type SavedViewDto,
  type SavedViewListDto,
  type UpdateSavedViewInput,
} from '../../../domain/schemas/saved-view';
import type { Db, Tx } from '../../db/client';
import { AppError } from '../../lib/errors';
import { requireContributor } from '../../db/membership';
import * as repo from './saved-views.repo';

function toDto(userId: string, row: repo.ViewWithNames): SavedViewDto {
  const { view } = row;
  return {
    id: view.id,
    name: view.name,
    ownerId: view.ownerId,
    ownerName: row.ownerName,
    teamId: view.teamId,
    teamName: view.teamId ? row.teamName : null,
    config: view.config as SavedViewConfig,
    canEdit: canEditView(row.callerRole, userId, view),
    createdAt: view.createdAt.toISOString(),
    updatedAt: view.updatedAt.toISOString(),
  };
}

const viewNotFound = () => new AppError('view_not_found');

/**
 * Saved views of the Tasks page (issue 23): personal (team null) or shared with a team, whose active members see it.
 * A view the caller does not see answers 404; one they see but may not change, 403.
 */
export class SavedViewsService {
  constructor(private readonly db: Db) {}

  async list(userId: string): Promise<SavedViewListDto> {
    const rows = await repo.listVisible(this.db, userId);
    return { views: rows.map((row) => toDto(userId, row)) };
  }

  async create(userId: string, input: CreateSavedViewInput): Promise<SavedViewDto> {
    const id = await this.db.transaction(async (tx) => {
      // Shared with a team: a viewer or a guest shares nothing there (issue 41); a personal view is anyone's.
      if (input.teamId) await requireContributor(tx, input.teamId, userId);
      if ((await repo.countOwnedLocked(tx, userId)) >= SAVED_VIEW_LIMITS.perUserMax) throw new AppError('too_many_views');
      const row = await repo.createOne(tx, { ownerId: userId, teamId: input.teamId, name: input.name, config: input.config });
      return row.id;
    });
    return this.get(userId, id);
  }

  async update(userId: string, id: string, input: UpdateSavedViewInput): Promise<SavedViewDto> {
    await this.db.transaction(async (tx) => {
      const current = await this.requireEditable(tx, userId, id);
      // Sharing it with another team takes what creating it there would: the caller's active membership.
      if (input.teamId && input.teamId !== current.teamId) await requireContributor(tx, input.teamId, userId);
      await repo.updateOne(tx, id, { name: input.name, teamId: input.teamId, config: input.config });
    });
    return this.get(userId, id);
  }

  async remove(userId: string, id: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      await this.requireEditable(tx, userId, id);
      await repo.deleteOne(tx, id);
    });
  }

  private async get(userId: string, id: string): Promise<SavedViewDto> {
    const row = await repo.getVisibleById(this.db, userId, id);
    if (!row) throw viewNotFound();
    return toDto(userId, row);
  }

  /** The view, locked, if the caller sees it (else 404) and may change it (else 403). */
  private async requireEditable(tx: Tx, userId: string, id: string) {
    const row = await repo.getVisibleById(tx, userId, id, true);
    if (!row) throw viewNotFound();
    if (!canEditView(row.callerRole, userId, row.view)) throw new AppError('permission_denied');
    return row.view;
  }
}
