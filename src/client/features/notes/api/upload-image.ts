import { ApiError, networkError, parseError, withFreshToken } from '../../../lib/api-client';

async function post(url: string, file: File, token: string | undefined): Promise<Response> {
  const form = new FormData();
  form.append('file', file, file.name || 'image');
  const headers: Record<string, string> = { accept: 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  try {
    return await fetch(url, { method: 'POST', headers, body: form });
  } catch {
    throw networkError();
  }
}

/**
 * POST /api/notes/:id/images (multipart, field `file`): the image is stored like a task attachment and the answer is
 * the URL to put in the document. An expired token is refreshed once, as `api` does.
 */
export async function uploadNoteImage(noteId: string, file: File): Promise<string> {
  const url = `/api/notes/${noteId}/images`;
  const res = await withFreshToken((token) => post(url, file, token));
  if (!res.ok) throw await parseError(res);
  const body = (await res.json()) as { url?: unknown };
  if (typeof body.url !== 'string') throw new ApiError(res.status, 'internal', 'internal', 'No image URL in the answer');
  return body.url;
}
