import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PAGE_SIZE, useServerPagination } from './use-server-pagination.ts';

function change(result: { current: ReturnType<typeof useServerPagination> }, page: number, size: number) {
  act(() => result.current.pagination(100).onChange?.(page, size));
}

describe('useServerPagination', () => {
  it('starts on the first page of 10 and hands the table the server total', () => {
    const { result } = renderHook(() => useServerPagination());
    expect(result.current.page).toBe(1);
    expect(result.current.size).toBe(DEFAULT_PAGE_SIZE);
    expect(result.current.pagination(42)).toMatchObject({ current: 1, pageSize: 10, total: 42 });
    expect(result.current.pagination(undefined)).toMatchObject({ total: 0 });
  });

  it('moves to another page at the same size', () => {
    const { result } = renderHook(() => useServerPagination());
    change(result, 3, 10);
    expect(result.current.page).toBe(3);
    expect(result.current.size).toBe(10);
    expect(result.current.pagination(100)).toMatchObject({ current: 3, pageSize: 10 });
  });

  it('goes back to the first page when the page size changes', () => {
    const { result } = renderHook(() => useServerPagination(20));
    expect(result.current.size).toBe(20);
    change(result, 4, 20);
    change(result, 4, 50);
    expect(result.current.page).toBe(1);
    expect(result.current.size).toBe(50);
  });
});
