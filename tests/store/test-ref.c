/* tests/store/test-ref.c — refs: what parses, what is refused. */
#include <glib.h>

#include "store/ref.h"
#include "store/store-error.h"

static void
test_app_ref_parses (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(XaRef) ref = xa_ref_parse ("app/org.example.Notes/x86_64/stable", &error);
  g_autofree char *spec = NULL;

  g_assert_no_error (error);
  g_assert_cmpint (xa_ref_get_kind (ref), ==, XA_METADATA_APP);
  g_assert_cmpstr (xa_ref_get_kind_name (ref), ==, "app");
  g_assert_cmpstr (xa_ref_get_id (ref), ==, "org.example.Notes");
  g_assert_cmpstr (xa_ref_get_arch (ref), ==, "x86_64");
  g_assert_cmpstr (xa_ref_get_branch (ref), ==, "stable");
  g_assert_cmpstr (xa_ref_get_string (ref), ==, "app/org.example.Notes/x86_64/stable");
  spec = xa_ref_dup_runtime_spec (ref);
  g_assert_cmpstr (spec, ==, "org.example.Notes/x86_64/stable");
}

static void
test_runtime_spec_parses (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(XaRef) ref = xa_ref_parse_runtime ("org.gnome.Platform/aarch64/45", &error);
  g_autoptr(XaRef) copy = NULL;

  g_assert_no_error (error);
  g_assert_cmpint (xa_ref_get_kind (ref), ==, XA_METADATA_RUNTIME);
  g_assert_cmpstr (xa_ref_get_string (ref), ==, "runtime/org.gnome.Platform/aarch64/45");
  copy = xa_ref_dup (ref);
  g_assert_true (xa_ref_equal (ref, copy));
}

static void
test_new_defaults_to_this_machine (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(XaRef) ref = xa_ref_new (XA_METADATA_APP, "org.example.Notes", NULL, "stable",
                                     &error);

  g_assert_no_error (error);
  g_assert_cmpstr (xa_ref_get_arch (ref), ==, xa_ref_get_default_arch ());
  g_assert_nonnull (xa_ref_get_default_arch ());
}

/* Each must be refused with XA_STORE_ERROR_INVALID_REF: a ref becomes a
 * path below the installation and a branch name in OSTree. */
static const char *const rejected_refs[] = {
  "",
  "app",
  "app/org.example.Notes",
  "app/org.example.Notes/x86_64",
  "app/org.example.Notes/x86_64/stable/extra",
  "application/org.example.Notes/x86_64/stable",
  "app//x86_64/stable",
  "app/org.example.Notes//stable",
  "app/org.example.Notes/x86_64/",
  "app/../x86_64/stable",
  "app/org.example.Notes/../stable",
  "app/org.example.Notes/x86_64/..",
  "app/org.example.Notes/data/stable",
  "app/org example/x86_64/stable",
  "app/org.example.Notes/x86_64/sta\nble",
};

static void
test_bad_refs_are_refused (void)
{
  for (gsize i = 0; i < G_N_ELEMENTS (rejected_refs); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(XaRef) ref = xa_ref_parse (rejected_refs[i], &error);

      g_test_message ("'%s'", rejected_refs[i]);
      g_assert_null (ref);
      g_assert_error (error, XA_STORE_ERROR, XA_STORE_ERROR_INVALID_REF);
    }
}

static const char *const rejected_runtimes[] = {
  "",
  "org.gnome.Platform",
  "org.gnome.Platform/x86_64",
  "org.gnome.Platform/x86_64/45/extra",
  "runtime/org.gnome.Platform/x86_64/45",
  "../x86_64/45",
};

static void
test_bad_runtimes_are_refused (void)
{
  for (gsize i = 0; i < G_N_ELEMENTS (rejected_runtimes); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(XaRef) ref = xa_ref_parse_runtime (rejected_runtimes[i], &error);

      g_test_message ("'%s'", rejected_runtimes[i]);
      g_assert_null (ref);
      g_assert_error (error, XA_STORE_ERROR, XA_STORE_ERROR_INVALID_REF);
    }
}

int
main (int argc,
      char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/store/ref/app-ref-parses", test_app_ref_parses);
  g_test_add_func ("/store/ref/runtime-spec-parses", test_runtime_spec_parses);
  g_test_add_func ("/store/ref/new-defaults-to-this-machine", test_new_defaults_to_this_machine);
  g_test_add_func ("/store/ref/bad-refs-are-refused", test_bad_refs_are_refused);
  g_test_add_func ("/store/ref/bad-runtimes-are-refused", test_bad_runtimes_are_refused);

  return g_test_run ();
}
