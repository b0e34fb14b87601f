import { CUSTOM_FIELD_TYPE_LABELS } from '../../../../domain/custom-fields';
import type { UseMutationResult } from '@tanstack/react-query';
import { useState } from 'react';
import { TASK_STATUS_LABELS } from '../../../../domain/constants';
import {
  type ImportResultDto,
  type TrelloImportInput,
  type TrelloListTarget,
  type TrelloPreviewDto,
  TRELLO_LIST_TARGETS,
} from '../../../../domain/schemas/transfer';
import { STATUS_CATEGORY_LABELS } from '../../../../domain/workflow';
import { Badge } from '../../../components/ui/badge';
import { TextField } from '../../../components/ui/field';
import { ImportDialog, useImportSteps } from './import-steps';
import { MappingTable } from './mapping-table';
import { PreviewNotes, PreviewStatus } from './preview-notes';
import { TEXT } from './transfer-text';

const targetLabel = (t: TrelloListTarget) => (t === 'skip' ? TEXT.skip : t === 'own' ? TEXT.ownStatus : TASK_STATUS_LABELS[t]);

export interface TrelloImportDialogProps {
  board: unknown;
  /** The dry run of the file as read: the lists and their suggested statuses. */
  initial: TrelloPreviewDto;
  mutation: UseMutationResult<TrelloPreviewDto | ImportResultDto, Error, TrelloImportInput>;
  onClose: () => void;
  onDone: (result: ImportResultDto) => void;
}

/** The mapping step of a Trello import: a status per list, the project's name, then 'Preview' and 'Import'. */
export function TrelloImportDialog({ board, initial, mutation, onClose, onDone }: TrelloImportDialogProps) {
  const [mapping, setMapping] = useState<Record<string, TrelloListTarget>>(() =>
    Object.fromEntries(initial.lists.map((l) => [l.id, l.suggestedStatus])),
  );
  const [projectName, setProjectName] = useState(initial.projectName);
  const body = { board, mapping, projectName: projectName.trim() || initial.projectName };
  /** The preview of exactly the current choices; any change makes it stale. */
  const steps = useImportSteps(mutation, body, onDone);
  const { preview, stale } = steps;

  return (
    <ImportDialog
      size="lg"
      title={TEXT.trelloTitle}
      description={TEXT.trelloHint(initial.boardName)}
      steps={steps}
      pending={mutation.isPending}
      onClose={onClose}
    >
      <TextField
        label={TEXT.projectName}
        value={projectName}
        maxLength={120}
        onChange={(e) => {
          setProjectName(e.target.value);
          stale();
        }}
      />
      <MappingTable
        nameColumn={TEXT.listColumn}
        countColumns={[TEXT.cardsColumn]}
        choiceColumn={TEXT.statusColumn}
        rows={initial.lists.map((list) => ({
          id: list.id,
          name: list.name,
          badge: list.archived && <Badge tone="secondary">{TEXT.archived}</Badge>,
          counts: [list.cards],
          choiceLabel: TEXT.statusFor(list.name),
          value: mapping[list.id]!,
        }))}
        choices={TRELLO_LIST_TARGETS}
        choiceText={targetLabel}
        onChoose={(listId, target) => {
          setMapping({ ...mapping, [listId]: target });
          stale();
        }}
      />
      <div>
        <h3 className="text-sm font-semibold">{TEXT.labels}</h3>
        {initial.labels.length ? (
          <ul className="mt-2 flex flex-wrap gap-2" aria-label={TEXT.labels}>
            {initial.labels.map((l) => (
              <li key={l.id}>
                <Badge tone="info">{l.tag ?? l.name}</Badge>
              </li>
            ))}
          </ul>
        ) : (
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">{TEXT.noLabels}</p>
        )}
      </div>
      {initial.fields.length > 0 && (
        <div>
          <h3 className="text-sm font-semibold">{TEXT.trelloFields}</h3>
          <ul className="mt-1 list-disc space-y-0.5 pl-5 text-sm" aria-label={TEXT.trelloFields}>
            {initial.fields.map((f) => (
              <li key={f.name}>{TEXT.trelloField(f.name, CUSTOM_FIELD_TYPE_LABELS[f.type], f.existing)}</li>
            ))}
          </ul>
        </div>
      )}
      <PreviewStatus className="text-sm">
        {preview && <PreviewNotes summary={TEXT.summary(preview.counts)} warnings={preview.warnings} />}
        {preview && Object.values(mapping).includes('own') && (
          <div className="mt-2">
            <h3 className="text-sm font-semibold">{TEXT.newStatuses}</h3>
            <ol className="mt-1 list-decimal space-y-0.5 pl-5" aria-label={TEXT.newStatuses}>
              {preview.statuses.map((s) => (
                <li key={s.key}>{TEXT.statusWithCategory(s.name, STATUS_CATEGORY_LABELS[s.category])}</li>
              ))}
            </ol>
          </div>
        )}
      </PreviewStatus>
    </ImportDialog>
  );
}
