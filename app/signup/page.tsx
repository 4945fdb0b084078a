import type { Metadata } from "next";
import { PortalHeader, PortalMain } from "@/components/portal";
import { SignUpForm } from "./signup-form";

export const metadata: Metadata = { title: "Sign up" };
export const dynamic = "force-dynamic";

export default function SignUpPage() {
  return (
    <>
      <PortalHeader />
      <PortalMain narrow>
        <SignUpForm />
      </PortalMain>
    </>
  );
}
