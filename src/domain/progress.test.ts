import { describe, expect, it } from 'vitest';
import { projectProgress } from './progress';

describe('projectProgress', () => {
  it('is the rounded percent of completed tasks, 0 without tasks', () => {
    expect(projectProgress(0, 0)).toBe(0);
    expect(projectProgress(0, 5)).toBe(0);
    expect(projectProgress(5, 5)).toBe(100);
    expect(projectProgress(1, 3)).toBe(33);
    expect(projectProgress(2, 3)).toBe(67);
  });
  it('rounds halves up, as PostgreSQL round() does on numeric', () => {
    expect(projectProgress(1, 8)).toBe(13);
    expect(projectProgress(1, 200)).toBe(1);
    expect(projectProgress(199, 200)).toBe(100);
  });
});
