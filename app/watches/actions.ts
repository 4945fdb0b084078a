"use server";

import { revalidatePath } from "next/cache";
import { requireAccount } from "@/lib/auth/session";
import { getDb } from "@/lib/db/client";
import { errorState, guardedAction } from "@/lib/forms/guarded-action";
import { formText, type ConfirmActionState } from "@/lib/forms/form-state";
import { ApiError } from "@/lib/http/errors";
import { WATCH_ID_RE } from "@/lib/ids";
import { createWatch, deleteWatch } from "@/lib/watches/manage-watches";
import { WATCH_KINDS, type WatchKind } from "@/lib/watches/watch-value";

// Every action re-reads the session and acts only on that account (Next checks the Origin).

export type WatchFormState = { values?: { kind: string; value: string }; error?: string; added?: { value: string; existed: boolean } };

export const addWatchAction = guardedAction(async (_prev: WatchFormState, form: FormData): Promise<WatchFormState> => {
  const account = await requireAccount();
  const kind = formText(form, "kind", 20);
  const value = formText(form, "value", 300).trim();
  const values = { kind, value };
  if (!(WATCH_KINDS as readonly string[]).includes(kind)) return { values, error: "Choose what to watch from the list." };
  if (!value) return { values, error: "Enter the value to watch." };
  try {
    const { watch, created } = await createWatch(await getDb(), account.id, { kind: kind as WatchKind, value });
    revalidatePath("/watches");
    return { values: { kind, value: "" }, added: { value: watch.match_key, existed: !created } };
  } catch (e) {
    if (e instanceof ApiError) return { values, error: e.message };
    throw e;
  }
}, errorState);

export const deleteWatchAction = guardedAction(async (_prev: ConfirmActionState, form: FormData): Promise<ConfirmActionState> => {
  const account = await requireAccount();
  if (form.get("confirm") !== "yes") return { error: "Nothing was deleted: confirm with the second button." };
  const id = form.get("id");
  if (typeof id === "string" && WATCH_ID_RE.test(id)) {
    await deleteWatch(await getDb(), account.id, id).catch((e) => {
      if (!(e instanceof ApiError)) throw e;
    });
  }
  revalidatePath("/watches");
  return {};
}, errorState);
