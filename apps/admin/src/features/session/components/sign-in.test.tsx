import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { answer, ok, refused, requestsTo } from '../../../test/network.ts';
import { renderScreen } from '../../../test/render.tsx';
import { SignInPage } from './sign-in.tsx';

async function enterPassword() {
  await renderScreen(<SignInPage />, { url: '/sign-in' });
  fireEvent.change(screen.getByLabelText('E-mail'), { target: { value: 'owner@example.com' } });
  fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'correct horse' } });
  fireEvent.click(screen.getByRole('button', { name: 'Next' }));
}

describe('signing in', () => {
  it('sends the e-mail and password, then asks for the authenticator code', async () => {
    answer('POST', '/session', ok({ next: 'second_factor' }));
    await enterPassword();
    expect(await screen.findByLabelText('Code from your authenticator app')).toBeTruthy();
    const sent = await requestsTo('POST', '/session');
    expect(sent.map((call) => call.body)).toEqual([
      { email: 'owner@example.com', password: 'correct horse' },
    ]);
  });

  it("shows the server's refusal, in the language it was asked in, and stays on the password", async () => {
    answer(
      'POST',
      '/session',
      refused(401, 'E-mail or password is wrong', { reason: 'credentials_invalid' }),
    );
    await enterPassword();
    expect(await screen.findByText('E-mail or password is wrong')).toBeTruthy();
    expect(screen.getByLabelText('Password')).toBeTruthy();
    const sent = await requestsTo('POST', '/session');
    expect(sent[0]?.headers.get('accept-language')).toBe('en');
  });
});
