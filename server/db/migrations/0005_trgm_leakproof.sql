-- Row-level security lets an index serve a condition only when its operator is LEAKPROOF; pg_trgm's and LIKE's are
-- not marked so, which kept the trigram index from the title filter (LIKE) and from PredictWightByTitle (<%) under the
-- tenant policy, making both a scan of the tenant's rows. Their results depend on the row only through their return
-- value (LIKE's only error is about the pattern, which the caller sends), so marking them LEAKPROOF reveals nothing
-- the policy hides. Only a superuser may mark a function LEAKPROOF: elsewhere the migration leaves them as they are
-- (correct, just without the index) and says so.
DO $$
BEGIN
  IF (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) THEN
    ALTER FUNCTION textlike(text, text) LEAKPROOF;
    ALTER FUNCTION word_similarity_commutator_op(text, text) LEAKPROOF;
  ELSE
    RAISE NOTICE 'not a superuser: LIKE and pg_trgm operators stay non-LEAKPROOF; title search will not use the trigram index';
  END IF;
END
$$;
