"""The UI layer: Streamlit pages' building blocks. Every number they show comes from attention_core."""

from threadpoolctl import threadpool_limits

# One BLAS thread for the whole server process, set once on import (finding the BLAS libraries on every
# run cost 2 % of a loaded server's time): idle BLAS threads that spin between calls slow a small server down.
threadpool_limits(limits=1, user_api="blas")
