import { z } from 'zod';
import { envelope } from '../../schema.js';

export const SignInProviders = envelope(
  z.object({
    password: z.boolean().describe('Whether email and password sign-in and signup are open (false when OIDC_ONLY=true)'),
    oidc: z
      .object({
        name: z.string().describe('The provider’s name for the button: "Sign in with <name>"'),
        startUrl: z.string().describe('Where the browser goes to sign in with the provider; add `?returnTo=/path` to come back there'),
      })
      .nullable()
      .describe('Single sign-on with an OpenID Connect provider, or null when it is not configured'),
  }),
);

export const OidcStartQuery = z.object({
  returnTo: z.string().max(2000).optional().describe('A path on this site to open once signed in (anything else becomes `/`)'),
});

export const OidcCallbackQuery = z
  .object({
    code: z.string().max(4096).optional(),
    state: z.string().max(4096).optional(),
    error: z.string().max(200).optional(),
    error_description: z.string().max(1000).optional(),
  })
  .describe('What the provider sends back (other parameters, such as `iss`, are read from the raw query)');
