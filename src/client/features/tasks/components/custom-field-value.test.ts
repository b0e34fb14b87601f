import { describe, expect, it } from 'vitest';
import { CUSTOM_FIELD_OPTION_COLORS } from '../../../../domain/custom-fields';
import { textColorOn } from './custom-field-value';

const channel = (c: number) => {
  const v = c / 255;
  return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
};
const luminance = (hex: string) => {
  const [r, g, b] = [1, 3, 5].map((i) => channel(Number.parseInt(hex.slice(i, i + 2), 16))) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
};
const contrast = (a: string, b: string) => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
};

describe('textColorOn', () => {
  it('reads at WCAG AA (4.5:1) on every offered colour and on any colour at all', () => {
    const samples = [...CUSTOM_FIELD_OPTION_COLORS, '#000000', '#ffffff', '#777777', '#808080', '#ff0000', '#00ff00', '#ffff00'];
    for (let i = 0; i < 500; i++) samples.push(`#${((i * 2654435761) % 0xffffff).toString(16).padStart(6, '0')}`);
    for (const color of samples) expect(contrast(color, textColorOn(color)), color).toBeGreaterThanOrEqual(4.5);
  });

  it('puts white on dark colours and black on light ones', () => {
    expect(textColorOn('#1e293b')).toBe('#ffffff');
    expect(textColorOn('#fde047')).toBe('#000000');
  });
});
