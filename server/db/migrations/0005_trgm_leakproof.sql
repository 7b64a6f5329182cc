-- Row-level security lets an index serve a condition only when its operator is LEAKPROOF; pg_trgm's, LIKE's and
-- numeric's comparisons are not marked so, which kept the trigram index from the title filter (LIKE) and from
-- PredictWightByTitle (<%), and the price and weight indexes from their range filters, under the tenant policy:
-- each was a scan of the tenant's rows. Their results depend on the row only through their return value (LIKE's only
-- error is about the pattern, which the caller sends; comparing two numerics cannot fail), so marking them LEAKPROOF
-- reveals nothing the policy hides. Only a superuser may mark a function LEAKPROOF: elsewhere the migration leaves them as they are
-- (correct, just without the index) and says so.
DO $$
BEGIN
  IF (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) THEN
    ALTER FUNCTION textlike(text, text) LEAKPROOF;
    ALTER FUNCTION word_similarity_commutator_op(text, text) LEAKPROOF;
    ALTER FUNCTION numeric_eq(numeric, numeric) LEAKPROOF;
    ALTER FUNCTION numeric_lt(numeric, numeric) LEAKPROOF;
    ALTER FUNCTION numeric_le(numeric, numeric) LEAKPROOF;
    ALTER FUNCTION numeric_gt(numeric, numeric) LEAKPROOF;
    ALTER FUNCTION numeric_ge(numeric, numeric) LEAKPROOF;
  ELSE
    RAISE NOTICE 'not a superuser: LIKE, pg_trgm and numeric comparisons stay non-LEAKPROOF; title, price and weight filters will not use their indexes';
  END IF;
END
$$;
