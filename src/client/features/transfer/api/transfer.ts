import { useMutation, useQueryClient } from '@tanstack/react-query';
import type {
  CsvImportInput,
  CsvPreviewDto,
  ImportResultDto,
  TrelloImportInput,
  TrelloPreviewDto,
} from '../../../../domain/schemas/transfer';
import { accessToken, api, parseError, refreshSession } from '../../../lib/api-client';
import { rootKey } from '../../../lib/query-keys';

export type ExportKind = 'json' | 'csv';

const exportPath = (teamId: string, kind: ExportKind) => `/api/teams/${teamId}/${kind === 'json' ? 'export' : 'export.csv'}`;

/** The file name the server gave (content-disposition), else a plain one. */
function fileNameOf(res: Response, kind: ExportKind): string {
  const match = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '');
  return match?.[1] ?? `crewboard-export.${kind}`;
}

/**
 * Downloads a team's export: fetched with the session's token (a plain link would carry none), then saved through an
 * object URL under the server's file name.
 */
export async function downloadExport(teamId: string, kind: ExportKind): Promise<string> {
  const get = (token: string | undefined) =>
    fetch(exportPath(teamId, kind), { headers: token ? { authorization: `Bearer ${token}` } : {} });
  let res = await get(accessToken());
  if (res.status === 401 && (await refreshSession().catch(() => null))) res = await get(accessToken());
  if (!res.ok) throw await parseError(res);
  const fileName = fileNameOf(res, kind);
  const url = URL.createObjectURL(await res.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return fileName;
}

/** After a real import: the new project and its tasks show up everywhere. */
function useRefreshAfterImport() {
  const queryClient = useQueryClient();
  return (result: TrelloPreviewDto | CsvPreviewDto | ImportResultDto) => {
    if ('dryRun' in result) return;
    void queryClient.invalidateQueries({ queryKey: rootKey('projects') });
    void queryClient.invalidateQueries({ queryKey: rootKey('tasks') });
  };
}

export const importTrello = (teamId: string, body: TrelloImportInput) =>
  api.post<TrelloPreviewDto | ImportResultDto>(`/api/teams/${teamId}/import/trello`, body);

export const importCsv = (teamId: string, body: Partial<CsvImportInput> & { csv: string }) =>
  api.post<CsvPreviewDto | ImportResultDto>(`/api/teams/${teamId}/import/csv`, body);

export function useTrelloImport(teamId: string) {
  const refresh = useRefreshAfterImport();
  return useMutation({ mutationFn: (body: TrelloImportInput) => importTrello(teamId, body), onSuccess: refresh });
}

export function useCsvImport(teamId: string) {
  const refresh = useRefreshAfterImport();
  return useMutation({
    mutationFn: (body: Partial<CsvImportInput> & { csv: string }) => importCsv(teamId, body),
    onSuccess: refresh,
  });
}

export const isPreview = <T extends { dryRun: true }>(result: T | ImportResultDto): result is T => 'dryRun' in result;
