import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { answer, ok, refused, requestsTo, sentTo } from '../../../test/network.ts';
import { renderWithProviders } from '../../../test/render.tsx';
import { signIn } from '../../../test/user-info.ts';
import { SupportPage } from './support-page.tsx';

const PNG_BYTES = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
const base64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));

const thread = {
  id: '6f1c1f5e-8d1b-4c55-9a57-4f7b0c6d9e01',
  subject: 'Cannot connect at night',
  category: 'connection',
  priority: 'high',
  state: 'open',
  unread: false,
  created_at: 1_800_000_000,
  last_message_at: 1_800_000_000,
  messages: [
    {
      id: '6f1c1f5e-8d1b-4c55-9a57-4f7b0c6d9e02',
      from: 'customer',
      body: 'It drops every evening',
      created_at: 1_800_000_000,
      attachments: [{ id: '6f1c1f5e-8d1b-4c55-9a57-4f7b0c6d9e03', mime: 'image/png', size: 11 }],
    },
  ],
};

async function openForm() {
  await renderWithProviders([{ path: '/support', element: <SupportPage /> }], { url: '/support' });
  fireEvent.click(await screen.findByRole('button', { name: /New ticket/ }));
  return screen.findByRole('dialog');
}

function fill(dialog: HTMLElement) {
  fireEvent.change(within(dialog).getByLabelText('Subject'), {
    target: { value: 'Cannot connect at night' },
  });
  fireEvent.click(within(dialog).getByText('High'));
  fireEvent.change(within(dialog).getByLabelText('Message'), { target: { value: 'It drops every evening' } });
}

const pick = (dialog: HTMLElement, file: File) =>
  fireEvent.change(dialog.querySelector('input[type=file]') as HTMLInputElement, {
    target: { files: [file] },
  });

beforeEach(() => {
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  signIn();
  answer('/web/ticket/list', ok({ total: 0, unread: 0, list: [] }));
  answer('/web/ticket/detail', ok(thread));
});

describe('the new ticket form', () => {
  it('sends the subject, category, priority, message and the screenshot’s bytes, then shows the thread', async () => {
    answer('/web/ticket/create', ok(thread));
    const dialog = await openForm();
    fill(dialog);
    pick(dialog, new File([PNG_BYTES], 'screen.png', { type: 'image/png' }));
    expect(await within(dialog).findByText('screen.png')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Submit ticket' }));
    await waitFor(() => expect(requestsTo('/web/ticket/create')).toHaveLength(1));
    expect(await sentTo('/web/ticket/create')).toEqual([
      {
        subject: 'Cannot connect at night',
        category: 'connection',
        priority: 'high',
        message: 'It drops every evening',
        images: [base64(PNG_BYTES)],
      },
    ]);
    expect(await screen.findByText('It drops every evening')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('asks for a subject and a message before sending anything', async () => {
    const dialog = await openForm();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Submit ticket' }));
    expect(await within(dialog).findByText('Please enter a subject')).toBeTruthy();
    expect(within(dialog).getByText('Please describe the problem')).toBeTruthy();
    expect(requestsTo('/web/ticket/create')).toHaveLength(0);
  });

  it('turns away a file that is not a picture before it is sent', async () => {
    const dialog = await openForm();
    fill(dialog);
    pick(
      dialog,
      new File(['<svg xmlns="http://www.w3.org/2000/svg"/>'], 'logo.png.svg', { type: 'image/svg+xml' }),
    );
    expect((await within(dialog).findByRole('alert')).textContent).toContain('PNG, JPEG or WebP');
    expect(within(dialog).queryByText('logo.png.svg')).toBeNull();
  });

  it('shows the server’s refusal in the form and keeps what was typed', async () => {
    const reason = 'You have too many open tickets; close one you no longer need first';
    answer('/web/ticket/create', refused(409, reason, { reason: 'ticket_open_limit' }));
    const dialog = await openForm();
    fill(dialog);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Submit ticket' }));
    expect((await within(dialog).findByRole('alert')).textContent).toContain(reason);
    expect((within(dialog).getByLabelText('Subject') as HTMLInputElement).value).toBe(
      'Cannot connect at night',
    );
  });
});
