/* tests/store/deploy-helper.c BASE REF COMMIT — deploys COMMIT of the
 * installed REF in the installation at BASE, in a process of its own, so
 * that test-deploy can kill -9 it at any moment. */
#include <stdlib.h>

#include <glib.h>

#include "store/deploy.h"
#include "store/installation.h"
#include "store/ref.h"

int
main (int argc,
      char **argv)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(XaInstallation) inst = NULL;
  g_autoptr(XaRef) ref = NULL;
  gboolean changed = FALSE;

  if (argc != 4)
    {
      g_printerr ("usage: deploy-helper BASE REF COMMIT\n");
      return EXIT_FAILURE;
    }
  inst = xa_installation_new (argv[1], XA_INSTALLATION_USER);
  ref = xa_ref_parse (argv[2], &error);
  if (ref == NULL || !xa_deploy_update (inst, ref, argv[3], NULL, &changed, &error))
    {
      g_printerr ("error: %s\n", error->message);
      return EXIT_FAILURE;
    }
  return EXIT_SUCCESS;
}
