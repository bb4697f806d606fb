"""scipy's chi-square goodness-of-fit test for the statistical tests,
imported when one first runs: scipy.stats takes 2-3 s to import, which
every pytest worker paid at collection for each module that imported it at
the top (make check runs none of those tests)."""


def p_value(observed, expected=None):
    """The test's p-value for the observed counts against the expected ones
    (uniform when None)."""
    from scipy.stats import chisquare

    return chisquare(observed, expected).pvalue
