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
import { Badge } from '../../../components/ui/badge';
import { inputClass, TextField } from '../../../components/ui/field';
import { Modal } from '../../../components/ui/modal';
import { ImportFooter, useImportSteps } from './import-steps';
import { PreviewNotes } from './preview-notes';
import { TEXT } from './transfer-text';

const targetLabel = (t: TrelloListTarget) => (t === 'skip' ? TEXT.skip : TASK_STATUS_LABELS[t]);

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
  const { preview, stale, runPreview, runImport } = useImportSteps(mutation, body, onDone);

  return (
    <Modal
      open
      onClose={onClose}
      size="lg"
      title={TEXT.trelloTitle}
      description={TEXT.trelloHint(initial.boardName)}
      footer={
        <ImportFooter
          onClose={onClose}
          onPreview={runPreview}
          onImport={runImport}
          pending={mutation.isPending}
          previewed={Boolean(preview)}
          canImport={Boolean(preview) && !mutation.isPending}
        />
      }
    >
      <div className="space-y-5">
        <TextField
          label={TEXT.projectName}
          value={projectName}
          maxLength={120}
          onChange={(e) => {
            setProjectName(e.target.value);
            stale();
          }}
        />
        <table className="w-full text-left text-sm">
          <thead className="text-xs uppercase tracking-wide text-slate-600 dark:text-slate-300">
            <tr>
              <th scope="col" className="py-2 pr-3 font-semibold">
                {TEXT.listColumn}
              </th>
              <th scope="col" className="py-2 pr-3 text-right font-semibold">
                {TEXT.cardsColumn}
              </th>
              <th scope="col" className="py-2 font-semibold">
                {TEXT.statusColumn}
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-200 dark:divide-slate-700">
            {initial.lists.map((list) => (
              <tr key={list.id}>
                <th scope="row" className="py-2 pr-3 font-medium">
                  <span className="break-words">{list.name}</span>{' '}
                  {list.archived && <Badge tone="secondary">{TEXT.archived}</Badge>}
                </th>
                <td className="py-2 pr-3 text-right tabular-nums">{list.cards}</td>
                <td className="py-2">
                  <select
                    aria-label={TEXT.statusFor(list.name)}
                    className={inputClass}
                    value={mapping[list.id]}
                    onChange={(e) => {
                      setMapping({ ...mapping, [list.id]: e.target.value as TrelloListTarget });
                      stale();
                    }}
                  >
                    {TRELLO_LIST_TARGETS.map((t) => (
                      <option key={t} value={t}>
                        {targetLabel(t)}
                      </option>
                    ))}
                  </select>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
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
        <div role="status" aria-live="polite" className="text-sm">
          {preview ? (
            <PreviewNotes summary={TEXT.summary(preview.counts)} warnings={preview.warnings} />
          ) : (
            <p className="text-slate-600 dark:text-slate-300">{TEXT.previewFirst}</p>
          )}
        </div>
      </div>
    </Modal>
  );
}
