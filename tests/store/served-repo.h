/* tests/store/served-repo.h — a real OSTree repository (archive mode),
 * filled with the ostree CLI the way a publisher would, and served over
 * HTTP on 127.0.0.1 by python3's http.server. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _ServedRepo ServedRepo;

ServedRepo *served_repo_new          (const char *dir);
void        served_repo_free         (ServedRepo *self);
const char *served_repo_get_url      (ServedRepo *self);
const char *served_repo_get_path     (ServedRepo *self);

void        served_repo_start        (ServedRepo *self);
void        served_repo_start_stopping_after (ServedRepo *self,
                                              guint       n_requests);
void        served_repo_stop         (ServedRepo *self);

char       *served_repo_commit       (ServedRepo *self,
                                      const char *ref,
                                      const char *tree,
                                      const char *xa_metadata);
void        served_repo_sign         (ServedRepo *self,
                                      const char *ref,
                                      const char *gpg_home,
                                      const char *key);
void        served_repo_sign_summary (ServedRepo *self,
                                      const char *gpg_home,
                                      const char *key);
void        served_repo_corrupt      (ServedRepo *self,
                                      const char *ref,
                                      const char *path);

#define TEST_ARCH        "x86_64"
#define TEST_APP_ID      "org.test.App"
#define TEST_APP_REF     "app/org.test.App/" TEST_ARCH "/stable"
#define TEST_RUNTIME_REF "runtime/org.test.Platform/" TEST_ARCH "/stable"

void        test_tree_write          (const char *tree,
                                      const char *path,
                                      const char *contents);
char       *test_run                 (const char *const *argv);
const char *test_app_metadata        (void);
const char *test_runtime_metadata    (void);
void        test_tree_make_app       (const char *tree,
                                      guint       n_files);
void        test_tree_make_runtime   (const char *tree);
void        test_remove_tree         (const char *path);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (ServedRepo, served_repo_free)

G_END_DECLS
