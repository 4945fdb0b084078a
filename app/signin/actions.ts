"use server";

import { headers } from "next/headers";
import { after } from "next/server";
import { requestLoginLink, type LinkRequestState } from "@/lib/auth/request-login-link";
import { clientAddress } from "@/lib/http/rate-limit";
import { guardedAction, errorState } from "@/lib/forms/guarded-action";

/** "Email me a sign-in link". Called with the email the user typed into the sign-in form. */
export const emailSignInLinkAction = guardedAction(async (email: unknown): Promise<LinkRequestState> => {
  return requestLoginLink(clientAddress(await headers()), email, "magic_link", after);
}, errorState);
