import { type UseMutationResult, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { TASK_PRIORITY_LABELS, TASK_STATUS_LABELS, type TaskStatus } from '../../../../domain/constants';
import {
  CSV_IMPORT_FIELD_LABELS,
  CSV_IMPORT_FIELDS,
  CSV_NEW_FIELD,
  type CsvImportInput,
  type CsvMappingTarget,
  type CsvPreviewDto,
  type ImportResultDto,
} from '../../../../domain/schemas/transfer';
import { SelectField, TextField } from '../../../components/ui/field';
import { ColumnHeaders } from '../../../components/ui/column-headers';
import { projectsQueryOptions } from '../../../lib/queries/projects';
import { ImportDialog, useImportSteps } from './import-steps';
import { MappingTable } from './mapping-table';
import { PreviewNotes, PreviewStatus } from './preview-notes';
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
  const [mapping, setMapping] = useState<Record<string, CsvMappingTarget>>(initial.mapping);
  const [projectId, setProjectId] = useState(NEW);
  const [projectName, setProjectName] = useState<string>(TEXT.defaultProjectName);
  const projects = useQuery(projectsQueryOptions({ teamId }));
  const body = {
    csv: text,
    mapping,
    ...(projectId ? { projectId } : { projectName: projectName.trim() || TEXT.defaultProjectName }),
  };

  const steps = useImportSteps(mutation, body, onDone);
  const { preview, stale } = steps;
  // The team's custom fields a column can fill (issue 38): those of the latest preview's project.
  const fields = (preview ?? initial).fields;
  const fieldName = new Map(fields.map((f) => [`field:${f.id}`, f.name]));
  const choices: CsvMappingTarget[] = [
    ...CSV_IMPORT_FIELDS,
    ...fields.map((f) => `field:${f.id}` as const),
    ...Object.values(mapping).filter((v) => v.startsWith('field:') && !fieldName.has(v)),
    CSV_NEW_FIELD,
  ];

  return (
    <ImportDialog
      size="xl"
      title={TEXT.csvTitle}
      description={TEXT.csvHint(fileName)}
      steps={steps}
      pending={mutation.isPending}
      blocked={Boolean(preview?.errors.length)}
      onClose={onClose}
    >
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
      <MappingTable
        nameColumn={TEXT.columnColumn}
        choiceColumn={TEXT.fieldColumn}
        rows={initial.headers.map((header) => ({
          id: header,
          name: header,
          choiceLabel: TEXT.fieldFor(header),
          value: mapping[header] ?? 'ignore',
        }))}
        choices={[...new Set(choices)]}
        choiceText={(f) =>
          f === CSV_NEW_FIELD
            ? TEXT.newField
            : f.startsWith('field:')
              ? TEXT.customField(fieldName.get(f) ?? TEXT.unknownField)
              : CSV_IMPORT_FIELD_LABELS[f as keyof typeof CSV_IMPORT_FIELD_LABELS]
        }
        onChoose={(header, field) => {
          setMapping({ ...mapping, [header]: field });
          stale();
        }}
      />
      <PreviewStatus className="space-y-4 text-sm">
        {preview && (
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
        )}
      </PreviewStatus>
    </ImportDialog>
  );
}

function PreviewRows({ rows }: { rows: CsvPreviewDto['rows'] }) {
  const fieldNames = [...new Set(rows.flatMap((r) => Object.keys(r.fields ?? {})))];
  return (
    <div>
      <h3 className="font-semibold">{TEXT.firstRows}</h3>
      <div className="mt-2 overflow-x-auto">
        <table className="w-full min-w-[40rem] text-left text-sm">
          <thead className="text-xs uppercase tracking-wide text-slate-600 dark:text-slate-300">
            <tr>
              <ColumnHeaders
                labels={[
                  TEXT.line,
                  TEXT.title,
                  TEXT.statusColumn,
                  TEXT.priority,
                  TEXT.start,
                  TEXT.due,
                  TEXT.tags,
                  TEXT.assignee,
                  ...fieldNames,
                ]}
                className="py-1 pr-3 font-semibold"
              />
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-200 dark:divide-slate-700">
            {rows.map((r) => (
              <tr key={r.line}>
                <td className="py-1 pr-3 tabular-nums">{r.line}</td>
                <td className="py-1 pr-3">{r.title}</td>
                <td className="py-1 pr-3">{TASK_STATUS_LABELS[r.status as TaskStatus] ?? r.status}</td>
                <td className="py-1 pr-3">{TASK_PRIORITY_LABELS[r.priority]}</td>
                <td className="py-1 pr-3">{r.startDate ?? '—'}</td>
                <td className="py-1 pr-3">{r.dueDate ?? '—'}</td>
                <td className="py-1 pr-3">{r.tags.join(', ') || '—'}</td>
                <td className="py-1 pr-3">{r.assignee ?? '—'}</td>
                {fieldNames.map((name) => (
                  <td key={name} className="py-1 pr-3">
                    {r.fields?.[name] ?? '—'}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
