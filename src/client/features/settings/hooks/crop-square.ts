/** The side of the square an avatar is cropped to, in pixels (sharp at twice the largest size it is shown). */
export const AVATAR_SIDE = 256;

/** The largest square in the middle of a `width` × `height` image: where to cut it out. */
export function centerSquare(width: number, height: number): { sx: number; sy: number; side: number } {
  const side = Math.min(width, height);
  return { sx: Math.floor((width - side) / 2), sy: Math.floor((height - side) / 2), side };
}

/** A JPEG stays a JPEG (a photo: smaller); anything else becomes a PNG (it may have transparency). */
export const croppedType = (sourceType: string): 'image/jpeg' | 'image/png' =>
  sourceType === 'image/jpeg' ? 'image/jpeg' : 'image/png';

/**
 * Decodes an image file and cuts the centre square out of it, scaled to AVATAR_SIDE × AVATAR_SIDE on a <canvas>.
 * Rejects when the browser cannot read the file as an image.
 */
export async function cropToSquare(file: Blob): Promise<Blob> {
  const bitmap = await createImageBitmap(file);
  try {
    const { sx, sy, side } = centerSquare(bitmap.width, bitmap.height);
    const canvas = document.createElement('canvas');
    canvas.width = AVATAR_SIDE;
    canvas.height = AVATAR_SIDE;
    const context = canvas.getContext('2d');
    if (!context || side === 0) throw new Error('The image cannot be drawn');
    context.imageSmoothingQuality = 'high';
    context.drawImage(bitmap, sx, sy, side, side, 0, 0, AVATAR_SIDE, AVATAR_SIDE);
    const type = croppedType(file.type);
    return await new Promise<Blob>((resolve, reject) =>
      canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('The image cannot be encoded'))), type, 0.9),
    );
  } finally {
    bitmap.close();
  }
}

/** The image as a data: URL, for its preview (the app's Content-Security-Policy allows data: images, not blob:). */
export function toDataUrl(image: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('The image cannot be read'));
    reader.readAsDataURL(image);
  });
}
