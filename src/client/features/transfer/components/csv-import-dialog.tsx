import { type UseMutationResult, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { TASK_PRIORITY_LABELS, TASK_STATUS_LABELS } from '../../../../domain/constants';
import {
  CSV_IMPORT_FIELD_LABELS,
  CSV_IMPORT_FIELDS,
  type CsvImportField,
  type CsvImportInput,
  type CsvPreviewDto,
  type ImportResultDto,
} from '../../../../domain/schemas/transfer';
import { inputClass, SelectField, TextField } from '../../../components/ui/field';
import { Modal } from '../../../components/ui/modal';
import { projectsQueryOptions } from '../../../lib/queries/projects';
import { ImportFooter, useImportSteps } from './import-steps';
import { PreviewNotes } from './preview-notes';
import { TEXT } from './transfer-text';

export interface CsvImportDialogProps {
  teamId: string;
  text: string;
  fileName: string;
  /** The first dry run: the headers and a suggested mapping. */
  initial: CsvPreviewDto;
  mutation: UseMutationResult<CsvPreviewDto | ImportResultDto, Error, Partial<CsvImportInput> & { csv: string }>;
  onClose: () => void;
  onDone: (result: ImportResultDto) => void;
}

const NEW = '';

/** The column mapping step of a CSV import: a field per column, the project, then 'Preview' and 'Import'. */
export function CsvImportDialog({ teamId, text, fileName, initial, mutation, onClose, onDone }: CsvImportDialogProps) {
  const [mapping, setMapping] = useState<Record<string, CsvImportField>>(initial.mapping);
  const [projectId, setProjectId] = useState(NEW);
  const [projectName, setProjectName] = useState<string>(TEXT.defaultProjectName);
  const projects = useQuery(projectsQueryOptions({ teamId }));
  const body = {
    csv: text,
    mapping,
    ...(projectId ? { projectId } : { projectName: projectName.trim() || TEXT.defaultProjectName }),
  };

  const { preview, stale, runPreview, runImport } = useImportSteps(mutation, body, onDone);
  const canImport = preview !== null && preview.errors.length === 0 && !mutation.isPending;

  return (
    <Modal
      open
      onClose={onClose}
      size="xl"
      title={TEXT.csvTitle}
      description={TEXT.csvHint(fileName)}
      footer={
        <ImportFooter
          onClose={onClose}
          onPreview={runPreview}
          onImport={runImport}
          pending={mutation.isPending}
          previewed={Boolean(preview)}
          canImport={canImport}
        />
      }
    >
      <div className="space-y-5">
        <div className="grid gap-4 sm:grid-cols-2">
          <SelectField
            label={TEXT.target}
            value={projectId}
            onChange={(e) => {
              setProjectId(e.target.value);
              stale();
            }}
          >
            <option value={NEW}>{TEXT.newProject}</option>
            {(projects.data ?? []).map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
              </option>
            ))}
          </SelectField>
          {projectId === NEW && (
            <TextField
              label={TEXT.newProjectName}
              value={projectName}
              maxLength={120}
              onChange={(e) => {
                setProjectName(e.target.value);
                stale();
              }}
            />
          )}
        </div>
        <table className="w-full text-left text-sm">
          <thead className="text-xs uppercase tracking-wide text-slate-600 dark:text-slate-300">
            <tr>
              <th scope="col" className="py-2 pr-3 font-semibold">
                {TEXT.columnColumn}
              </th>
              <th scope="col" className="py-2 font-semibold">
                {TEXT.fieldColumn}
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-200 dark:divide-slate-700">
            {initial.headers.map((header) => (
              <tr key={header}>
                <th scope="row" className="py-2 pr-3 font-medium">
                  <span className="break-words">{header}</span>
                </th>
                <td className="py-2">
                  <select
                    aria-label={TEXT.fieldFor(header)}
                    className={inputClass}
                    value={mapping[header] ?? 'ignore'}
                    onChange={(e) => {
                      setMapping({ ...mapping, [header]: e.target.value as CsvImportField });
                      stale();
                    }}
                  >
                    {CSV_IMPORT_FIELDS.map((f) => (
                      <option key={f} value={f}>
                        {CSV_IMPORT_FIELD_LABELS[f]}
                      </option>
                    ))}
                  </select>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <div role="status" aria-live="polite" className="space-y-4 text-sm">
          {preview ? (
            <>
              <PreviewNotes summary={TEXT.csvSummary(preview.counts.tasks)} warnings={preview.warnings} />
              {preview.errors.length > 0 && (
                <div className="rounded-lg border border-red-300 p-3 dark:border-red-800">
                  <h3 className="font-semibold text-red-800 dark:text-red-300">{TEXT.rowErrors}</h3>
                  <ul className="mt-1 list-disc space-y-0.5 pl-5">
                    {preview.errors.map((e) => (
                      <li key={`${e.line}-${e.message}`}>
                        {TEXT.line} {e.line}: {e.message}
                      </li>
                    ))}
                  </ul>
                  <p className="mt-2">{TEXT.fixErrors}</p>
                </div>
              )}
              {preview.rows.length > 0 && <PreviewRows rows={preview.rows} />}
            </>
          ) : (
            <p className="text-slate-600 dark:text-slate-300">{TEXT.previewFirst}</p>
          )}
        </div>
      </div>
    </Modal>
  );
}

function PreviewRows({ rows }: { rows: CsvPreviewDto['rows'] }) {
  return (
    <div>
      <h3 className="font-semibold">{TEXT.firstRows}</h3>
      <div className="mt-2 overflow-x-auto">
        <table className="w-full min-w-[36rem] text-left text-sm">
          <thead className="text-xs uppercase tracking-wide text-slate-600 dark:text-slate-300">
            <tr>
              {[TEXT.line, TEXT.title, TEXT.statusColumn, TEXT.priority, TEXT.due, TEXT.tags, TEXT.assignee].map((h) => (
                <th key={h} scope="col" className="py-1 pr-3 font-semibold">
                  {h}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-200 dark:divide-slate-700">
            {rows.map((r) => (
              <tr key={r.line}>
                <td className="py-1 pr-3 tabular-nums">{r.line}</td>
                <td className="py-1 pr-3">{r.title}</td>
                <td className="py-1 pr-3">{TASK_STATUS_LABELS[r.status]}</td>
                <td className="py-1 pr-3">{TASK_PRIORITY_LABELS[r.priority]}</td>
                <td className="py-1 pr-3">{r.dueDate ?? '—'}</td>
                <td className="py-1 pr-3">{r.tags.join(', ') || '—'}</td>
                <td className="py-1 pr-3">{r.assignee ?? '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
