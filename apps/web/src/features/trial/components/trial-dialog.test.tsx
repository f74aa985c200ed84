import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import type { QueryClient } from '@tanstack/react-query';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { clearSession } from '../../../lib/session.ts';
import { answer, answerLater, type Answer, ok, refused, requestsTo, sentTo } from '../../../test/network.ts';
import { newQueryClient, renderWithProviders } from '../../../test/render.tsx';
import { signIn } from '../../../test/user-info.ts';

vi.mock('../../../lib/toast.ts', () => import('../../../test/fake-toast.ts'));

const { showError, showSuccess } = await import('../../../test/fake-toast.ts');
const { TrialDialog } = await import('./trial-dialog.tsx');

const OPEN = { open_trial: '1', trial_minute: 120, invite_minute: 1440 };

/** The server: the invitation config, and the claim's reply. */
function answerTrial(conf: Answer, claim: Answer = ok()) {
  answer('/web/invite/conf', conf);
  answer('/web/invite/claim', claim);
}

async function renderDialog(onClose = vi.fn(), queryClient?: QueryClient) {
  await renderWithProviders(
    [
      { path: '/invite', element: <TrialDialog onClose={onClose} /> },
      { path: '/buy', element: <p>buy page</p> },
    ],
    { url: '/invite', queryClient },
  );
  return onClose;
}

const claims = () => requestsTo('/web/invite/claim');

beforeEach(() => {
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  signIn();
});

describe('TrialDialog', () => {
  it('appears when open_trial is "1", with the trial length in days and hours', async () => {
    answerTrial(ok({ ...OPEN, trial_minute: 2160 }));
    await renderDialog();
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain('Claim 1 day 12 hours of free access');
    expect(dialog.textContent).not.toContain('minutes');
    expect(await sentTo('/web/invite/conf')).toEqual([{}]);
  });

  it("waits for a fresh config although the trial's state display has an open one cached", async () => {
    const client = newQueryClient();
    client.setQueryData(['invite-conf'], OPEN);
    const conf = answerLater('/web/invite/conf');
    const onClose = await renderDialog(vi.fn(), client);
    await waitFor(() => expect(conf.arrived).toBe(true));
    expect(screen.queryByRole('dialog')).toBeNull();
    await act(async () => conf.send(ok({ ...OPEN, open_trial: '0' })));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(screen.queryByRole('dialog')).toBeNull();
    // The fresh answer replaces the cached one, so the display learns that the trial closed.
    expect(client.getQueryData(['invite-conf'])).toEqual({ ...OPEN, open_trial: '0' });
  });

  it('never appears when open_trial is "0", and ends at once', async () => {
    answerTrial(ok({ ...OPEN, open_trial: '0' }));
    const onClose = await renderDialog();
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('only logs a failed config call', async () => {
    answerTrial(refused(500, 'boom'));
    const onClose = await renderDialog();
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(console.warn).toHaveBeenCalled();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(showError).not.toHaveBeenCalled();
  });

  it('claims when signed in: success message with the granted time, closes, goes to /buy', async () => {
    answerTrial(ok(OPEN), ok({ trial_time: 1440, expire_user: 1_800_000_000 }));
    const onClose = await renderDialog();
    fireEvent.click(await screen.findByRole('button', { name: 'Claim now' }));
    await screen.findByText('buy page');
    expect(claims()).toHaveLength(1);
    expect(showSuccess).toHaveBeenCalledWith('Free trial claimed: 1 day added.', 1.5);
    await waitFor(() => expect(onClose).toHaveBeenCalled());
  });

  it('goes to /buy without claiming when signed out', async () => {
    clearSession();
    answerTrial(ok(OPEN), ok({ trial_time: 120, expire_user: 0 }));
    await renderDialog();
    fireEvent.click(await screen.findByRole('button', { name: 'Claim now' }));
    await screen.findByText('buy page');
    expect(claims()).toHaveLength(0);
    expect(showSuccess).not.toHaveBeenCalled();
  });

  it('"Not now" closes without claiming', async () => {
    answerTrial(ok(OPEN));
    const onClose = await renderDialog();
    fireEvent.click(await screen.findByRole('button', { name: 'Not now' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(claims()).toHaveLength(0);
    expect(screen.queryByText('buy page')).toBeNull();
  });

  it('shows the server\'s "already claimed" message as an error and closes, staying on the page', async () => {
    const msg = 'You have already claimed the free trial';
    answerTrial(ok(OPEN), refused(409, msg, { reason: 'trial_claimed' }));
    const onClose = await renderDialog();
    fireEvent.click(await screen.findByRole('button', { name: 'Claim now' }));
    await waitFor(() => expect(showError).toHaveBeenCalledWith(msg, 5));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(screen.queryByText('buy page')).toBeNull();
    expect(showSuccess).not.toHaveBeenCalled();
  });

  it('only logs any other failed claim and keeps the dialog open', async () => {
    answerTrial(ok(OPEN), refused(409, 'closed', { reason: 'trial_closed' }));
    const onClose = await renderDialog();
    fireEvent.click(await screen.findByRole('button', { name: 'Claim now' }));
    await waitFor(() =>
      expect(console.warn).toHaveBeenCalledWith('Trial: the claim failed', expect.anything()),
    );
    expect(showError).not.toHaveBeenCalled();
    expect(onClose).not.toHaveBeenCalled();
    expect(screen.getByRole('dialog')).toBeTruthy();
  });
});
