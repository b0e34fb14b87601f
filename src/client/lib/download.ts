import { networkError, parseError, withFreshToken } from './api-client';

/** Saves a blob as a file (a link to an object URL, clicked), revoking the URL once the browser has taken it. */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** The file name the server gave (content-disposition), else `fallback`. */
function fileNameOf(res: Response, fallback: string): string {
  const match = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '');
  return match?.[1] ?? fallback;
}

/**
 * Downloads a file of the API: fetched with the session's bearer token (a plain link would carry none; once more
 * after a refresh when the token had run out), then saved under the server's file name, else `fallbackName`.
 * Answers the name it was saved under.
 */
export async function downloadFile(url: string, fallbackName: string): Promise<string> {
  let res: Response;
  try {
    res = await withFreshToken((token) => fetch(url, { headers: token ? { authorization: `Bearer ${token}` } : {} }));
  } catch {
    throw networkError();
  }
  if (!res.ok) throw await parseError(res);
  const fileName = fileNameOf(res, fallbackName);
  saveBlob(await res.blob(), fileName);
  return fileName;
}
