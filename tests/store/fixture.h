/* tests/store/fixture.h — an installation in a temp dir and a served
 * repository that carries a test runtime and a test app, with remote
 * "test" pointing at it. */
#pragma once

#include <glib.h>

#include "store/installation.h"
#include "store/pull.h"
#include "tests/store/served-repo.h"

G_BEGIN_DECLS

typedef struct
{
  char           *tmp;
  ServedRepo     *repo;
  XaInstallation *inst;
  char           *runtime_tree;
  char           *app_tree;
  char           *runtime_v1;   /* the commits first published */
  char           *app_v1;
} StoreFixture;

void   store_fixture_setup     (StoreFixture  *f,
                                gconstpointer  data);
void   store_fixture_teardown  (StoreFixture  *f,
                                gconstpointer  data);
char  *store_fixture_pull      (StoreFixture  *f,
                                const char    *ref,
                                XaPullStatus  *out_last,
                                GError       **error);
void   store_fixture_install   (StoreFixture  *f,
                                const char    *ref);
gboolean store_fixture_update  (StoreFixture  *f,
                                const char    *ref,
                                gboolean      *out_changed,
                                GError       **error);
char  *store_fixture_active    (StoreFixture  *f,
                                const char    *ref);
char  *store_fixture_path      (StoreFixture  *f,
                                const char    *relative);
guint  store_fixture_count_objects (StoreFixture *f);

G_END_DECLS
