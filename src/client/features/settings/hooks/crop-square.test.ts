import { describe, expect, it } from 'vitest';
import { centerSquare, croppedType } from './crop-square';

describe('centerSquare', () => {
  it('cuts the middle of a landscape, a portrait and a square image', () => {
    expect(centerSquare(400, 300)).toEqual({ sx: 50, sy: 0, side: 300 });
    expect(centerSquare(300, 401)).toEqual({ sx: 0, sy: 50, side: 300 });
    expect(centerSquare(256, 256)).toEqual({ sx: 0, sy: 0, side: 256 });
  });
});

describe('croppedType', () => {
  it('keeps a JPEG a JPEG, and makes anything else a PNG', () => {
    expect(croppedType('image/jpeg')).toBe('image/jpeg');
    for (const type of ['image/png', 'image/gif', 'image/webp', '']) expect(croppedType(type)).toBe('image/png');
  });
});
